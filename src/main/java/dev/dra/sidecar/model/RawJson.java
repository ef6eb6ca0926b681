package dev.dra.sidecar.model;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.util.RawValue;
import java.io.IOException;

/**
 * A JSON value kept as text, the way Go's {@code metav1.FieldsV1} keeps its bytes, and encoded as that text:
 * every number and string token is served exactly as the file wrote it ({@code 1.0} stays {@code 1.0}, a
 * string keeps its escapes), as Go's writer emits the bytes through {@code json.Compact}.
 *
 * @param json one complete JSON value with no whitespace outside strings
 */
public record RawJson(String json) {

    @JsonValue
    RawValue encoded() {
        return new RawValue(json);
    }

    /**
     * Where a {@link Deserializer} finds the text it copies from: the decoding context attribute under this
     * class holds it. {@code offset} is the index in {@code text} of the parser's first character.
     */
    public record Source(char[] text, int offset) {}

    /**
     * Reads any JSON value as its compacted text. Requires a {@link Source} in the context's attributes and a
     * syntactically valid document (the decoder checks the syntax before binding).
     */
    public static final class Deserializer extends StdDeserializer<RawJson> {
        private static final long serialVersionUID = 1L;

        public Deserializer() {
            super(RawJson.class);
        }

        @Override
        public RawJson deserialize(JsonParser p, DeserializationContext context) throws IOException {
            Source source = (Source) context.getAttribute(Source.class);
            if (source == null) {
                throw new IllegalStateException("no RawJson.Source attribute: decode through MetadataStreamDecoder");
            }
            int start = source.offset() + (int) p.currentTokenLocation().getCharOffset();
            if (p.currentToken() == JsonToken.START_OBJECT || p.currentToken() == JsonToken.START_ARRAY) {
                p.skipChildren();
            }
            return new RawJson(compact(source.text(), start));
        }

        /** The JSON value starting at {@code start}, without the whitespace outside its strings. */
        public static String compact(char[] t, int start) {
            StringBuilder out = new StringBuilder();
            int depth = 0;
            int i = start;
            while (i < t.length) {
                char c = t[i];
                if (c == '"') {
                    int end = endOfString(t, i);
                    out.append(t, i, end - i);
                    i = end;
                } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                    if (depth == 0) {
                        break;
                    }
                    i++;
                    continue;
                } else if (c == '{' || c == '[') {
                    depth++;
                    out.append(c);
                    i++;
                } else if (c == '}' || c == ']' || c == ',') {
                    if (depth == 0) {
                        break;
                    }
                    out.append(c);
                    i++;
                    if (c != ',' && --depth == 0) {
                        break;
                    }
                    continue;
                } else {
                    out.append(c);
                    i++;
                    continue;
                }
                if (depth == 0) {
                    break; // a complete string at the top level
                }
            }
            return out.toString();
        }

        private static int endOfString(char[] t, int quote) {
            int i = quote + 1;
            while (t[i] != '"') {
                i += t[i] == '\\' ? 2 : 1;
            }
            return i + 1;
        }
    }
}
