package dev.dra.sidecar.decode.gojson;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.lang.reflect.RecordComponent;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one Jackson configuration that reads and writes metadata the way Go's {@code encoding/json} (as used by
 * Kubernetes) does: unknown fields ignored, field names case-sensitive, no coercion between JSON types (a
 * string {@code generation} or a fractional {@code int} is an error), integers kept exact, map keys written
 * in sorted order.
 *
 * <p>JSON {@code null} reads as Go reads it: into a list item or a map value it gives the element type's zero
 * value ({@code 0}, {@code false}, {@code ""}, or the record with every member absent, which encodes as
 * {@code {}}); into any other member it leaves the member absent, which is what Go's nil pointer, slice and map
 * and Go's zero scalar (omitted on output) both serve as.
 */
public final class GoCompatibleJson {

    /** Go's {@code encoding/json} refuses nesting deeper than this. */
    private static final int MAX_NESTING_DEPTH = 10_000;

    /**
     * Go has no limit on the length of a number or a key (Jackson's defaults: 1,000 digits, 50,000 characters).
     * Nothing longer than a file can occur, and files are refused beyond the default 1 MiB size limit; a
     * larger configured limit would make a longer number or key a malformed stream, where Go accepts it.
     */
    private static final int MAX_TOKEN_LENGTH = 1 << 20;

    private static final ObjectMapper MAPPER = build();

    private GoCompatibleJson() {}

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    private static ObjectMapper build() {
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_NESTING_DEPTH)
                        .maxNumberLength(MAX_TOKEN_LENGTH)
                        .maxNameLength(MAX_TOKEN_LENGTH)
                        .build())
                // A number of any length (up to the file size limit) parses in linear time.
                .enable(StreamReadFeature.USE_FAST_BIG_NUMBER_PARSER)
                .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
                .build();
        JsonMapper mapper = JsonMapper.builder(factory)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                // Decoded maps keep Go's key order (bytes of the UTF-8 encoding); the serializer writes a
                // sorted map as it is instead of re-sorting it in Java's UTF-16 order.
                .addModule(new SimpleModule("go-map-order").addAbstractTypeMapping(Map.class, GoOrderedMap.class))
                .addModule(new SimpleModule("go-zero-values").setDeserializerModifier(new ZeroValueRecords()))
                // Values many files repeat are held once (field names and map keys Jackson interns itself).
                .addModule(new SimpleModule("shared-strings").addDeserializer(String.class, new SharedStrings()))
                .build();
        // null as a list item or map value: the element deserializer's empty value (0, false, "", zero record)
        mapper.configOverride(List.class).setSetterInfo(JsonSetter.Value.forContentNulls(Nulls.AS_EMPTY));
        mapper.configOverride(Map.class).setSetterInfo(JsonSetter.Value.forContentNulls(Nulls.AS_EMPTY));
        for (LogicalType type : LogicalType.values()) {
            var config = mapper.coercionConfigFor(type);
            for (CoercionInputShape shape : CoercionInputShape.values()) {
                config.setCoercion(shape, CoercionAction.Fail);
            }
        }
        return mapper;
    }

    /** Gives every model record an empty value: the record with every member absent (Go's zero struct). */
    private static final class ZeroValueRecords extends BeanDeserializerModifier {
        @Override
        public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription bean,
                JsonDeserializer<?> deserializer) {
            return bean.getBeanClass().isRecord() ? new ZeroValueRecord(deserializer) : deserializer;
        }
    }

    private static final class ZeroValueRecord extends DelegatingDeserializer {
        private static final long serialVersionUID = 1L;

        ZeroValueRecord(JsonDeserializer<?> delegate) {
            super(delegate);
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
            return new ZeroValueRecord(delegate);
        }

        @Override
        public Object getEmptyValue(DeserializationContext context) {
            Class<?> type = handledType();
            RecordComponent[] members = type.getRecordComponents();
            Class<?>[] types = new Class<?>[members.length];
            for (int i = 0; i < members.length; i++) {
                types[i] = members[i].getType();
            }
            try {
                return type.getDeclaredConstructor(types).newInstance(new Object[members.length]);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("no canonical constructor on " + type, e);
            }
        }
    }

    /** A map sorted as Go's encoder sorts map keys: by the bytes of their UTF-8 encoding. */
    static final class GoOrderedMap<K, V> extends TreeMap<K, V> {
        private static final long serialVersionUID = 1L;

        @SuppressWarnings("unchecked")
        GoOrderedMap() {
            super((Comparator<? super K>) GoText.CODE_POINT_ORDER); // every map key in the model is a string
        }
    }
}
