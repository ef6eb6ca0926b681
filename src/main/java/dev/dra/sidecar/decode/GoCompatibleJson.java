package dev.dra.sidecar.decode;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;

/**
 * The one Jackson configuration that reads and writes metadata the way Go's {@code encoding/json} (as used by
 * Kubernetes) does: unknown fields ignored, field names case-sensitive, no coercion between JSON types (a
 * string {@code generation} or a fractional {@code int} is an error), integers kept exact, map keys written
 * in sorted order.
 */
public final class GoCompatibleJson {

    /** Go's {@code encoding/json} refuses nesting deeper than this. */
    static final int MAX_NESTING_DEPTH = 10_000;

    private static final ObjectMapper MAPPER = build();

    private GoCompatibleJson() {}

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    private static ObjectMapper build() {
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build())
                .build();
        JsonMapper mapper = JsonMapper.builder(factory)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                .build();
        for (LogicalType type : LogicalType.values()) {
            var config = mapper.coercionConfigFor(type);
            for (CoercionInputShape shape : CoercionInputShape.values()) {
                config.setCoercion(shape, CoercionAction.Fail);
            }
        }
        return mapper;
    }
}
