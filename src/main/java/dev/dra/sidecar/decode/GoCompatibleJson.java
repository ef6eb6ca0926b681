package dev.dra.sidecar.decode;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one Jackson configuration that reads and writes metadata the way Go's {@code encoding/json} (as used by
 * Kubernetes) does: unknown fields ignored, field names case-sensitive, no coercion between JSON types (a
 * string {@code generation} or a fractional {@code int} is an error), integers kept exact, map keys written
 * in sorted order.
 */
public final class GoCompatibleJson {

    /** Go's {@code encoding/json} refuses nesting deeper than this. */
    static final int MAX_NESTING_DEPTH = 10_000;

    /**
     * Go has no limit on the length of a number or a key (Jackson's defaults: 1,000 digits, 50,000 characters).
     * Nothing longer than a file can occur, and files are refused beyond the default 1 MiB size limit; a
     * larger configured limit would make a longer number or key a malformed stream, where Go accepts it.
     */
    static final int MAX_TOKEN_LENGTH = 1 << 20;

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
                // Without these a long number in a raw-JSON field (fieldsV1) parses in quadratic time:
                // 19 s instead of under a second for a megabyte of digits.
                .enable(StreamReadFeature.USE_FAST_BIG_NUMBER_PARSER)
                .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
                .build();
        JsonMapper mapper = JsonMapper.builder(factory)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                // Raw JSON (fieldsV1) keeps each number's value exactly, as Go keeps its bytes: a double would
                // turn 0.1000000000000000000001 into 0.1 and 1e400 into "Infinity".
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES) // 1.50 and 0.0 stay what they were
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                // Decoded maps keep Go's key order (bytes of the UTF-8 encoding); the serializer writes a
                // sorted map as it is instead of re-sorting it in Java's UTF-16 order.
                .addModule(new SimpleModule("go-map-order").addAbstractTypeMapping(Map.class, GoOrderedMap.class))
                .build();
        for (LogicalType type : LogicalType.values()) {
            var config = mapper.coercionConfigFor(type);
            for (CoercionInputShape shape : CoercionInputShape.values()) {
                config.setCoercion(shape, CoercionAction.Fail);
            }
        }
        return mapper;
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
