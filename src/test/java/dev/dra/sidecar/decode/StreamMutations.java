package dev.dra.sidecar.decode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Seeded structural edits of one metadata object's JSON: a value replaced by another type, {@code null}, a number
 * at or past the int64 edges, an odd string or deep nesting; a key in another letter case, escaped, with invalid
 * UTF-8, or written twice; edits of the whole text (a BOM, whitespace, trailing junk); and the edits of
 * {@link ApimachineryMutations}. Each edit keeps the rest of the object, so that a decoder must get past the edit
 * exactly as Go does.
 */
final class StreamMutations {

    private static final ObjectMapper JSON = GoCompatibleJson.mapper();
    private static final String VALUE_MARK = "@@oracle-value@@";
    private static final String KEY_MARK = "@@oracle-key@@";

    /** JSON values as raw text, written where a value was; a few are not valid JSON on purpose. */
    private static final List<String> VALUES = List.of("null", "true", "false", "0", "-0", "1", "-1", "\"\"", "\"x\"",
            "[]", "{}", "[null]", "{\"a\":null}", "[1,\"a\",null]", "{\"int\":1}", "{\"string\":\"s\",\"int\":2}",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
            "18446744073709551616", "1.0", "1.5", "-0.0", "1e3", "1E+2", "1e-2", "2.0e0", "1e400", "-1e400", "0.0000001",
            "9223372036854775807.0", "9.223372036854775807e18", "0x10", "01", "+1", ".5", "1.", "NaN", "Infinity",
            "\"\\ud800\"", "\"\\udc00\\ud800\"", "\"\\ud83d\\ude00\"", "\"\\u0000\"", "\"a\\/b\"", "\"\\u00e9\"", "\"tab\\there\"",
            "\"\\x\"", "\"\t\"", "\"2024-01-01T00:00:00Z\"", "\"2024-01-01T00:00:00.123+02:00\"", "\"noon\"",
            "\"Bad_Name\"", "\"UPPER\"", "\"-x\"", "\"" + "a".repeat(64) + "\"", "\"" + "b".repeat(254) + "\"",
            "\"v1\"", "\"1.2.3\"", "\"10.0.0.1/24\"", "tru", "nul", "\"unterminated");
    /** Bytes that are not UTF-8, put inside a string. */
    private static final List<byte[]> BAD_UTF8 = List.of(new byte[] {(byte) 0xff}, new byte[] {(byte) 0xc3},
            new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, new byte[] {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            new byte[] {(byte) 0xe2, (byte) 0x82}, new byte[] {(byte) 0xc0, (byte) 0xaf});
    private static final List<String> WHITESPACE = List.of(" ", "\t", "\r\n", "\n\n", "\f", "\u000b", "\u00a0", "\u0085",
            "\u2028", "\ufeff");
    private static final List<String> JUNK = List.of("x", "}", "]", ",", "null", "1", "\"s\"", "[]", "{", "\u0000", "{}");

    private final RandomMetadata random;
    private final ApimachineryMutations apimachinery;

    StreamMutations(RandomMetadata random) {
        this.random = random;
        this.apimachinery = new ApimachineryMutations(random);
    }

    /** {@code json} (one object) with one edit. */
    byte[] mutate(String json) {
        try {
            return switch (random.random.nextInt(13)) {
                case 10, 11, 12 -> apimachinery.mutate(json);
                case 0, 1, 2 -> replaceValue(json);
                case 3 -> badUtf8InString(json);
                case 4 -> renameKey(json);
                case 5 -> duplicateKey(json);
                case 6 -> deepNesting(json);
                case 7 -> utf8(random.pick(List.of("\ufeff", "\ufeff\ufeff", " \ufeff")) + json);
                case 8 -> whitespace(json);
                default -> utf8(json + random.pick(List.of("", " ", "\n")) + random.pick(JUNK));
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private byte[] replaceValue(String json) throws IOException {
        JsonNode tree = JSON.readTree(json);
        Slot slot = randomSlot(tree);
        slot.set(TextNode.valueOf(VALUE_MARK));
        return replace(JSON.writeValueAsString(tree), "\"" + VALUE_MARK + "\"", utf8(random.pick(VALUES)));
    }

    private byte[] badUtf8InString(String json) throws IOException {
        JsonNode tree = JSON.readTree(json);
        Slot slot = randomSlot(tree);
        byte[] bad = random.pick(BAD_UTF8);
        String before = slot.value().isTextual() ? slot.value().asText() : "";
        slot.set(TextNode.valueOf(VALUE_MARK));
        int at = random.random.nextInt(before.length() + 1);
        ByteArrayOutputStream value = new ByteArrayOutputStream();
        value.writeBytes(utf8(JSON.writeValueAsString(before.substring(0, at)).replaceAll("\"$", "")));
        value.writeBytes(bad);
        value.writeBytes(utf8(JSON.writeValueAsString(before.substring(at)).substring(1)));
        return replace(JSON.writeValueAsString(tree), "\"" + VALUE_MARK + "\"", value.toByteArray());
    }

    private byte[] renameKey(String json) throws IOException {
        JsonNode tree = JSON.readTree(json);
        Member member = pickMember(tree);
        if (member == null || member.name().isEmpty()) {
            // an empty key has no letter to change the case of or to escape
            return utf8(json);
        }
        ObjectNode object = member.object();
        String name = member.name();
        byte[] key = switch (random.random.nextInt(5)) {
            case 0 -> utf8(JSON.writeValueAsString(name.toUpperCase(Locale.ROOT)));
            case 1 -> utf8(JSON.writeValueAsString(name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1)));
            case 2 -> utf8("\"\\u" + String.format("%04x", (int) name.charAt(0)) + JSON.writeValueAsString(name).substring(2));
            case 3 -> concat(utf8("\"" + name.substring(0, name.length() / 2)), random.pick(BAD_UTF8),
                    utf8(name.substring(name.length() / 2) + "\""));
            default -> utf8(JSON.writeValueAsString(name.replace("K", "\u212a").replace("s", "\u017f")));
        };
        renameInPlace(object, name, KEY_MARK);
        return replace(JSON.writeValueAsString(tree), "\"" + KEY_MARK + "\"", key);
    }

    private byte[] duplicateKey(String json) throws IOException {
        JsonNode tree = JSON.readTree(json);
        Member member = pickMember(tree);
        if (member == null) {
            return utf8(json);
        }
        ObjectNode object = member.object();
        String name = member.name();
        String earlier = random.chance(50) ? JSON.writeValueAsString(object.get(name)) : random.pick(VALUES);
        renameInPlace(object, name, KEY_MARK);
        String later = JSON.writeValueAsString(object.get(KEY_MARK));
        String quoted = JSON.writeValueAsString(name);
        return replace(JSON.writeValueAsString(tree), "\"" + KEY_MARK + "\":" + later,
                utf8(quoted + ":" + earlier + "," + quoted + ":" + later));
    }

    private byte[] deepNesting(String json) throws IOException {
        int depth = random.pick(List.of(9_990, 9_998, 9_999, 10_000, 10_001, 10_002, 20_000));
        String open = random.chance(50) ? "[" : "{\"a\":";
        String close = open.equals("[") ? "]" : "}";
        JsonNode tree = JSON.readTree(json);
        randomSlot(tree).set(TextNode.valueOf(VALUE_MARK));
        return replace(JSON.writeValueAsString(tree), "\"" + VALUE_MARK + "\"",
                utf8(open.repeat(depth) + "1" + close.repeat(depth)));
    }

    private byte[] whitespace(String json) {
        StringBuilder out = new StringBuilder(json);
        for (int n = 1 + random.random.nextInt(3); n > 0; n--) {
            out.insert(random.random.nextInt(out.length() + 1), random.pick(WHITESPACE));
        }
        return utf8(out.toString());
    }

    /** A place holding a value: an object member or an array item anywhere in {@code root} (not the root). */
    private record Slot(JsonNode parent, String name, int index) {
        JsonNode value() {
            return name != null ? parent.get(name) : parent.get(index);
        }

        void set(JsonNode value) {
            if (name != null) {
                ((ObjectNode) parent).set(name, value);
            } else {
                ((ArrayNode) parent).set(index, value);
            }
        }
    }

    private Slot randomSlot(JsonNode root) {
        List<Slot> slots = new ArrayList<>();
        collectSlots(root, slots);
        return random.pick(slots);
    }

    private static void collectSlots(JsonNode node, List<Slot> slots) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                slots.add(new Slot(node, e.getKey(), -1));
                collectSlots(e.getValue(), slots);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                slots.add(new Slot(node, null, i));
                collectSlots(node.get(i), slots);
            }
        }
    }

    /** A member of some object of a tree: the object and the member's name. */
    private record Member(ObjectNode object, String name) {
    }

    /** A random member of a random object of {@code tree}, or null when the object picked is empty. */
    private Member pickMember(JsonNode tree) {
        List<ObjectNode> objects = new ArrayList<>();
        collectObjects(tree, objects);
        ObjectNode object = random.pick(objects);
        if (object.isEmpty()) {
            return null;
        }
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return new Member(object, random.pick(names));
    }

    private static void collectObjects(JsonNode node, List<ObjectNode> objects) {
        if (node instanceof ObjectNode object) {
            objects.add(object);
        }
        node.elements().forEachRemaining(child -> collectObjects(child, objects));
    }

    /** Renames a member keeping its position. */
    private static void renameInPlace(ObjectNode object, String from, String to) {
        List<Map.Entry<String, JsonNode>> members = new ArrayList<>(object.properties());
        object.removeAll();
        for (Map.Entry<String, JsonNode> e : members) {
            object.set(e.getKey().equals(from) ? to : e.getKey(), e.getValue());
        }
    }

    private static byte[] replace(String json, String mark, byte[] with) {
        int at = json.indexOf(mark);
        return concat(utf8(json.substring(0, at)), with, utf8(json.substring(at + mark.length())));
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
