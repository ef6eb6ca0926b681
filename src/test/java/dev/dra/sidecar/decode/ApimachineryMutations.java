package dev.dra.sidecar.decode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Edits of one metadata object's JSON aimed at apimachinery's own decode path rather than at the values: the
 * metav1 kinds its scheme knows in every version, the internal version, a top-level value its YAML path reads,
 * a null apiVersion or kind in another letter case, and a repeated key whose earlier value has the wrong type.
 */
final class ApimachineryMutations {

    private static final ObjectMapper JSON = GoCompatibleJson.mapper();
    static final String INTERNAL = "metadata.resource.k8s.io/__internal";
    private static final List<String> META_KINDS = List.of("Status", "APIGroup", "APIGroupList", "APIVersions",
            "APIResourceList", "WatchEvent", "ListOptions", "GetOptions", "DeleteOptions", "CreateOptions",
            "UpdateOptions", "PatchOptions", "InternalEvent");
    private static final List<String> VERSIONS = List.of("metadata.resource.k8s.io/v1beta1",
            "metadata.resource.k8s.io/v1alpha1", INTERNAL, "v1", "x.example.com/v1", "meta.k8s.io/v1", "__internal");
    /** Members of the metav1 kinds with values of the right and the wrong type. */
    private static final List<String> META_MEMBERS = List.of("\"code\":404", "\"code\":\"x\"", "\"code\":3000000000",
            "\"status\":1", "\"details\":{\"causes\":[{\"reason\":5}],\"retryAfterSeconds\":1.5}",
            "\"metadata\":{\"remainingItemCount\":\"x\"}", "\"resources\":[{\"verbs\":[1],\"namespaced\":\"y\"}]",
            "\"versions\":[{\"version\":1}]", "\"preferredVersion\":\"x\"", "\"groups\":[{\"name\":1}]",
            "\"type\":1", "\"object\":{\"a\":[1]}", "\"Object\":{}", "\"Type\":5", "\"limit\":1.5", "\"watch\":\"x\"",
            "\"preconditions\":{\"uid\":1}", "\"dryRun\":[true]", "\"force\":\"x\"", "\"versions\":[\"v1\"]");
    /** The internal type's Go field names for the v1beta1 JSON names. */
    private static final Map<String, String> INTERNAL_NAMES = Map.of("podClaimName", "PodClaimName",
            "requests", "Requests", "name", "Name", "devices", "Devices", "driver", "Driver", "pool", "Pool",
            "attributes", "Attributes", "networkData", "NetworkData");
    /** Top-level values that are not objects, as raw bytes: what YAML refuses, and what it reads otherwise. */
    private static final List<String> NOT_OBJECTS = List.of("\"a\\/b\"", "\"\\ud800\"", "\"\\udc00\\ud800\"",
            "\"\\ud83d\\ude00\"", "\"\\u0000\"", "\"\u007f\"", "\"\u0080\"", "\"\u0085\"", "\"\ufffe\"", "\"\ufeff\"",
            "\"\u2028\\/\"", "[\n\"\\ud800\"]", "[1,\r\n\"\\/\"]", "[\"\u007f\",\"\\/\"]", "[[\"x\"],{\"a\":\"\\ud800\"}]",
            "1e400", "-1e400", "1e-400", "1e308", "18446744073709551616", "[1e400]", "\"x\"", "[]", "null", "-0");
    private static final List<byte[]> BAD_UTF8 = List.of(new byte[] {(byte) 0xff}, new byte[] {(byte) 0xc3},
            new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, new byte[] {(byte) 0xc0, (byte) 0xaf},
            new byte[] {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80});
    private static final List<String> WRONG_TYPES = List.of("5", "true", "\"x\"", "[1]", "{\"a\":1}", "1.5", "null");

    private final RandomMetadata random;

    ApimachineryMutations(RandomMetadata random) {
        this.random = random;
    }

    /** {@code json} (one object) with one edit of these classes. */
    byte[] mutate(String json) throws IOException {
        ObjectNode object = (ObjectNode) JSON.readTree(json);
        return switch (random.random.nextInt(5)) {
            case 0 -> metaKind(object);
            case 1 -> internalVersion(object);
            case 2 -> notAnObject();
            case 3 -> nullInAnotherCase(object);
            default -> repeatedWithWrongType(object);
        };
    }

    private byte[] metaKind(ObjectNode object) throws IOException {
        object.put("kind", random.pick(META_KINDS));
        object.put("apiVersion", random.pick(VERSIONS));
        String text = JSON.writeValueAsString(object);
        for (int n = random.random.nextInt(3); n > 0; n--) {
            text = text.substring(0, text.length() - 1) + "," + random.pick(META_MEMBERS) + "}";
        }
        return utf8(text);
    }

    /** The object in the internal type's JSON (Go field names, object meta at the top), sometimes half renamed. */
    private byte[] internalVersion(ObjectNode object) throws IOException {
        ObjectNode out = JSON.createObjectNode();
        out.put("kind", "DeviceMetadata").put("apiVersion", INTERNAL);
        boolean rename = random.chance(80);
        if (object.get("metadata") instanceof ObjectNode metadata && random.chance(80)) {
            out.setAll(metadata);
        }
        object.properties().forEach(e -> {
            if (!e.getKey().equals("metadata") && !e.getKey().equals("kind") && !e.getKey().equals("apiVersion")) {
                out.set(rename ? INTERNAL_NAMES.get(e.getKey()) : e.getKey(), rename ? renamed(e.getValue()) : e.getValue());
            }
        });
        return utf8(JSON.writeValueAsString(out));
    }

    private JsonNode renamed(JsonNode value) {
        if (value instanceof ArrayNode items) {
            ArrayNode out = JSON.createArrayNode();
            items.forEach(item -> out.add(renamed(item)));
            return out;
        }
        if (value instanceof ObjectNode members && !members.has("int") && !members.has("ips")) {
            ObjectNode out = JSON.createObjectNode();
            members.properties().forEach(e -> out.set(INTERNAL_NAMES.getOrDefault(e.getKey(), e.getKey()),
                    e.getKey().equals("attributes") || e.getKey().equals("networkData") ? e.getValue() : renamed(e.getValue())));
            return out;
        }
        return value;
    }

    private byte[] notAnObject() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (random.chance(30)) {
            out.writeBytes(utf8("{\"apiVersion\":\"" + random.pick(RandomMetadata.UNKNOWN) + "\",\"kind\":\"X\"}\n"));
        }
        if (random.chance(25)) {
            boolean inArray = random.chance(50);
            out.writeBytes(utf8(inArray ? "[\"a\",\"" : "\""));
            out.writeBytes(random.pick(BAD_UTF8));
            out.writeBytes(utf8((random.chance(50) ? "\\/" : "") + "\"" + (inArray ? "]" : "")));
        } else {
            String value = random.pick(NOT_OBJECTS);
            if (random.chance(20)) { // past go-yaml's 512-byte reader chunk
                value = "[" + "\"a\",".repeat(random.random.nextInt(300)) + value + "]";
            }
            out.writeBytes(utf8(value));
        }
        return out.toByteArray();
    }

    /** A null apiVersion or kind under the same name in another letter case, before or after the real one. */
    private byte[] nullInAnotherCase(ObjectNode object) throws IOException {
        String name = random.pick(List.of("apiVersion", "kind"));
        String other = random.pick(List.of(name.toUpperCase(), name.toLowerCase(),
                Character.toUpperCase(name.charAt(0)) + name.substring(1), name));
        String text = JSON.writeValueAsString(object);
        String inserted = "\"" + other + "\":" + random.pick(List.of("null", "null", "\"\""));
        return utf8(random.chance(50) ? "{" + inserted + "," + text.substring(1)
                : text.substring(0, text.length() - 1) + "," + inserted + "}");
    }

    /** A member written two or three times, a value of the wrong type first or in the middle. */
    private byte[] repeatedWithWrongType(ObjectNode object) throws IOException {
        List<ObjectNode> objects = new ArrayList<>();
        collect(object, objects);
        ObjectNode target = random.pick(objects);
        List<String> names = new ArrayList<>();
        target.fieldNames().forEachRemaining(names::add);
        names.removeIf(n -> target == object && (n.equals("kind") || n.equals("apiVersion")));
        if (names.isEmpty()) {
            return utf8(JSON.writeValueAsString(object));
        }
        String name = random.pick(names);
        String good = JSON.writeValueAsString(target.get(name));
        String mark = "@@repeated@@";
        target.put(name, mark);
        String quoted = JSON.writeValueAsString(name);
        String wrong = random.pick(WRONG_TYPES);
        String values = random.chance(50) ? quoted + ":" + wrong + "," + quoted + ":" + good
                : quoted + ":" + good + "," + quoted + ":" + wrong + "," + quoted + ":" + good;
        return utf8(JSON.writeValueAsString(object).replace(quoted + ":\"" + mark + "\"", values));
    }

    private static void collect(JsonNode node, List<ObjectNode> objects) {
        if (node instanceof ObjectNode o && !o.isEmpty()) {
            objects.add(o);
        }
        node.elements().forEachRemaining(child -> collect(child, objects));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
