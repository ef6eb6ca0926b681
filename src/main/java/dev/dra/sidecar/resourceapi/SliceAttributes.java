package dev.dra.sidecar.resourceapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dra.sidecar.model.DeviceAttribute;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A device's attributes as a ResourceSlice publishes them ({@code spec.devices[].attributes}), keys as published.
 * An unqualified name means the driver's own domain, so {@code uuid} and {@code <driver>/uuid} name one attribute:
 * where a slice has both, the fully qualified one wins and the bare one is left out, as upstream's
 * {@code LookupByQualifiedName} reads them. Every typed member is kept, list-typed ones included.
 */
final class SliceAttributes {

    private SliceAttributes() {}

    /** The attributes of {@code attributes} (a slice device's {@code attributes} object), sorted by name. */
    static Map<String, DeviceAttribute> of(String driver, JsonNode attributes) {
        Map<String, DeviceAttribute> out = new TreeMap<>();
        attributes.fields().forEachRemaining(field -> out.put(field.getKey(), attribute(field.getValue())));
        String ownDomain = driver + "/";
        out.keySet().removeIf(name -> !name.contains("/") && out.containsKey(ownDomain + name));
        return Map.copyOf(out);
    }

    private static DeviceAttribute attribute(JsonNode value) {
        return new DeviceAttribute(
                value.path("int").isIntegralNumber() ? value.path("int").asLong() : null,
                value.path("bool").isBoolean() ? value.path("bool").asBoolean() : null,
                value.path("string").isTextual() ? value.path("string").asText() : null,
                value.path("version").isTextual() ? value.path("version").asText() : null,
                list(value.path("ints"), JsonNode::isIntegralNumber, JsonNode::asLong),
                list(value.path("bools"), JsonNode::isBoolean, JsonNode::asBoolean),
                list(value.path("strings"), JsonNode::isTextual, JsonNode::asText),
                list(value.path("versions"), JsonNode::isTextual, JsonNode::asText));
    }

    private static <T> List<T> list(JsonNode array, java.util.function.Predicate<JsonNode> typed,
            Function<JsonNode, T> value) {
        if (!array.isArray() || array.isEmpty()) {
            return null;
        }
        List<T> out = new ArrayList<>(array.size());
        for (JsonNode item : array) {
            if (typed.test(item)) {
                out.add(value.apply(item));
            }
        }
        return List.copyOf(out);
    }
}
