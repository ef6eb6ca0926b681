package dev.dra.sidecar.decode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import dev.dra.sidecar.decode.gojson.GoRepeatedKeys;
import dev.dra.sidecar.decode.gojson.GoTypes;
import java.io.IOException;
import java.util.Map;

/**
 * An object of the internal version ({@code metadata.resource.k8s.io/__internal}), which Go's reader decodes
 * like any other: its JSON is the internal Go type's ({@link GoTypes#INTERNAL}: Go field names, the object
 * meta at the top level), rewritten here as the same object in {@code v1beta1} JSON, so that it binds to the
 * model.
 */
final class InternalVersion {

    private static final ObjectMapper JSON = GoCompatibleJson.mapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Map<String, String> REQUEST = Map.of("Name", "name", "Devices", "devices");
    private static final Map<String, String> DEVICE = Map.of("Driver", "driver", "Pool", "pool", "Name", "name",
            "Attributes", "attributes", "NetworkData", "networkData");

    private InternalVersion() {}

    /** The (syntactically valid, well-typed) internal object between {@code start} and {@code end}, as v1beta1 JSON. */
    static char[] asV1beta1(char[] text, char[] raw, int start, int end) throws IOException {
        JsonNode internal = GoRepeatedKeys.foldTree(text, raw, start, end, GoTypes.INTERNAL);
        ObjectNode out = NODES.objectNode();
        ObjectNode metadata = NODES.objectNode();
        internal.properties().forEach(member -> {
            String name = member.getKey();
            JsonNode value = member.getValue();
            switch (name) {
                case "kind", "apiVersion" -> out.set(name, value);
                case "PodClaimName" -> out.set("podClaimName", value);
                case "Requests" -> out.set("requests", renamed(value, REQUEST, "Devices"));
                default -> metadata.set(name, value); // a member of the embedded ObjectMeta
            }
        });
        if (!metadata.isEmpty()) {
            out.set("metadata", metadata);
        }
        return JSON.writeValueAsString(out).toCharArray();
    }

    /** Each item of the list {@code items} with its members renamed; the items of {@code nested} are devices. */
    private static JsonNode renamed(JsonNode items, Map<String, String> names, String nested) {
        if (!(items instanceof ArrayNode list)) {
            return items;
        }
        ArrayNode out = NODES.arrayNode();
        for (JsonNode item : list) {
            if (!(item instanceof ObjectNode object)) {
                out.add(item);
                continue;
            }
            ObjectNode renamed = NODES.objectNode();
            object.properties().forEach(member -> renamed.set(names.get(member.getKey()),
                    member.getKey().equals(nested) ? renamed(member.getValue(), DEVICE, null) : member.getValue()));
            out.add(renamed);
        }
        return out;
    }
}
