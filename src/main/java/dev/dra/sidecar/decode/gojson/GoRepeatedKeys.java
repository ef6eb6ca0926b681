package dev.dra.sidecar.decode.gojson;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.dra.sidecar.model.RawJson;
import java.io.IOException;

/**
 * An object with a key repeated inside one JSON object, rewritten into the object Go's decoder makes of it,
 * so that binding the rewritten text gives Go's value.
 *
 * <p>Go decodes a repeated key into what the earlier one left: an object into a struct merges field by field,
 * an object into a map adds its entries (each decoded into a fresh value), an array into a slice decodes its
 * items into the earlier items and drops the rest; {@code null} resets a pointer, slice, map or timestamp
 * and leaves a string, number or struct as it was. Values of the wrong type are kept as written, so that
 * binding reports the same error. {@code fieldsV1} is kept as the text the file wrote.
 */
public final class GoRepeatedKeys {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = GoCompatibleJson.mapper();

    private GoRepeatedKeys() {}

    /**
     * The object between {@code start} and {@code end} of {@code text} (syntax already checked), decoded as Go
     * decodes it into {@code root}: every repeated key folded, unknown members left out; {@code raw} is the same
     * text before surrogate-escape replacement.
     */
    public static char[] fold(char[] text, char[] raw, int start, int end, GoTypes.Type root) throws IOException {
        return JSON.writeValueAsString(foldTree(text, raw, start, end, root)).toCharArray();
    }

    /** As {@link #fold}, as a tree. */
    public static JsonNode foldTree(char[] text, char[] raw, int start, int end, GoTypes.Type root) throws IOException {
        try (JsonParser p = JSON.createParser(text, start, end - start)) {
            p.nextToken();
            return fold(p, null, root, raw, start);
        }
    }

    /** Decodes the value at the parser into {@code existing} (null: nothing yet) as a value of {@code type}. */
    private static JsonNode fold(JsonParser p, JsonNode existing, GoTypes.Type type, char[] raw, int base)
            throws IOException {
        JsonToken token = p.currentToken();
        if (token == JsonToken.VALUE_NULL) {
            return type.nullResets() || existing == null ? NODES.nullNode() : existing;
        }
        if (type == GoTypes.FIELDS_V1) {
            String value = RawJson.Deserializer.compact(raw, base + (int) p.currentTokenLocation().getCharOffset());
            p.skipChildren();
            return NODES.rawValueNode(new RawValue(value));
        }
        if (type.kind() == GoTypes.Kind.STRUCT && token == JsonToken.START_OBJECT) {
            ObjectNode out = existing instanceof ObjectNode earlier ? earlier.deepCopy() : NODES.objectNode();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                GoTypes.Type field = type.fields().get(name);
                p.nextToken();
                if (field == null) {
                    p.skipChildren(); // unknown fields are ignored
                    continue;
                }
                out.set(name, fold(p, out.get(name), field, raw, base));
            }
            return out;
        }
        if (type.kind() == GoTypes.Kind.MAP && token == JsonToken.START_OBJECT) {
            ObjectNode out = existing instanceof ObjectNode earlier ? earlier.deepCopy() : NODES.objectNode();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                p.nextToken();
                out.set(key, fold(p, null, type.elem(), raw, base)); // each entry decodes into a fresh value
            }
            return out;
        }
        if (type.kind() == GoTypes.Kind.SLICE && token == JsonToken.START_ARRAY) {
            ArrayNode out = NODES.arrayNode();
            int i = 0;
            while (p.nextToken() != JsonToken.END_ARRAY) {
                JsonNode earlier = existing instanceof ArrayNode items && i < items.size() ? items.get(i) : null;
                out.add(fold(p, earlier, type.elem(), raw, base));
                i++;
            }
            return out;
        }
        return literal(p);
    }

    /** A scalar as written (numbers keep their literal), or a value of the wrong type for binding to refuse. */
    private static JsonNode literal(JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> NODES.rawValueNode(new RawValue(p.getText()));
            case VALUE_STRING -> NODES.textNode(p.getText());
            case VALUE_TRUE, VALUE_FALSE -> NODES.booleanNode(p.getBooleanValue());
            default -> p.readValueAsTree();
        };
    }
}
