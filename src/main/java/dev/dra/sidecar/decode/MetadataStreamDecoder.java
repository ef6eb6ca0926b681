package dev.dra.sidecar.decode;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dra.sidecar.model.DeviceMetadata;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Decodes a device-metadata stream with the rules of Go's {@code devicemetadata.DecodeMetadataFromStream}
 * (v0.36.1 and later): take the first object of a known version, skip objects of unknown group/version,
 * fail on anything else, and never read past the chosen object.
 *
 * <p>Failures carry a {@link FailureCode} and a message in the wording of the Go reader, prefixed with the
 * source name so that a merged read names the file that failed.
 */
public final class MetadataStreamDecoder {

    private static final ObjectMapper JSON = GoCompatibleJson.mapper();

    private MetadataStreamDecoder() {}

    /**
     * Decodes {@code stream}, the bytes of one file.
     *
     * @param source names the stream in failure messages (a file path)
     */
    public static DecodedMetadata decode(byte[] stream, String source) throws MetadataDecodeException {
        // Go's decoder reads invalid UTF-8 inside strings as U+FFFD; decoding the bytes that way first gives
        // the same strings and the same syntax errors everywhere else.
        String text = new String(stream, StandardCharsets.UTF_8);
        List<String> unknown = new ArrayList<>();
        try (JsonParser parser = JSON.createParser(text)) {
            while (more(text, (int) parser.currentLocation().getCharOffset())) {
                JsonNode value = readValue(parser);
                GroupVersionKind gvk = peekGroupVersionKind(value, source);
                if (gvk.isKnownVersion()) {
                    return new DecodedMetadata(bind(value, gvk, source), gvk.groupVersion(), List.copyOf(unknown));
                }
                unknown.add(gvk.groupVersion());
            }
        } catch (IOException e) {
            throw new MetadataDecodeException(FailureCode.MALFORMED_STREAM,
                    source + ": read metadata object from stream: " + describe(e));
        }
        if (unknown.isEmpty()) {
            throw new MetadataDecodeException(FailureCode.NO_METADATA_OBJECTS,
                    source + ": no metadata objects found in stream");
        }
        throw new MetadataDecodeException(FailureCode.NO_COMPATIBLE_VERSION, source
                + ": no compatible metadata version found in stream (unknown versions: "
                + String.join(", ", unknown) + ")");
    }

    /**
     * Go's {@code json.Decoder.More}: another value follows unless only JSON whitespace remains or the next
     * byte closes an object or array (such a stream simply ends, it is not a syntax error).
     */
    private static boolean more(String text, int offset) {
        for (int i = offset; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                continue;
            }
            return c != '}' && c != ']';
        }
        return false;
    }

    private static JsonNode readValue(JsonParser parser) throws IOException {
        parser.nextToken();
        return JSON.readTree(parser);
    }

    /**
     * Go's {@code SimpleMetaFactory.Interpret} then the serializer's kind and version checks: apiVersion and
     * kind are found case-insensitively (the last matching key wins), must be strings, and the apiVersion
     * must have at most one slash.
     */
    private static GroupVersionKind peekGroupVersionKind(JsonNode value, String source)
            throws MetadataDecodeException {
        if (!(value instanceof ObjectNode object)) {
            throw invalid(source, "decode metadata object: couldn't get version/kind; json parse error: expected "
                    + "an object, got " + describeType(value));
        }
        String apiVersion = "";
        String kind = "";
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            boolean isApiVersion = field.getKey().equalsIgnoreCase("apiVersion");
            boolean isKind = field.getKey().equalsIgnoreCase("kind");
            if (!isApiVersion && !isKind) {
                continue;
            }
            JsonNode v = field.getValue();
            if (!v.isTextual() && !v.isNull()) {
                throw invalid(source, "decode metadata object: couldn't get version/kind; json parse error: "
                        + field.getKey() + " must be a string, got " + describeType(v));
            }
            String text = v.isNull() ? "" : v.textValue();
            if (isApiVersion) {
                apiVersion = text;
            } else {
                kind = text;
            }
        }
        GroupVersionKind gvk = GroupVersionKind.parse(apiVersion, kind);
        if (gvk == null) {
            throw invalid(source, "decode metadata object: unexpected GroupVersion string: " + apiVersion);
        }
        if (kind.isEmpty()) {
            String what = gvk.version().isEmpty() ? "metadata object" : gvk.groupVersion();
            throw invalid(source, "decode " + what + ": Object 'Kind' is missing");
        }
        if (gvk.version().isEmpty()) {
            throw invalid(source, "decode metadata object: Object 'apiVersion' is missing");
        }
        if (gvk.isKnownVersion() && !DeviceMetadata.KIND.equals(kind)) {
            throw invalid(source, "decode " + gvk.groupVersion() + ": no kind \"" + kind
                    + "\" is registered for version \"" + gvk.groupVersion() + "\"; want " + DeviceMetadata.KIND);
        }
        return gvk;
    }

    private static DeviceMetadata bind(JsonNode value, GroupVersionKind gvk, String source)
            throws MetadataDecodeException {
        try {
            DeviceMetadata object = JSON.treeToValue(value, DeviceMetadata.class);
            return object.withApiVersion(gvk.groupVersion());
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw invalid(source, "decode " + gvk.groupVersion() + ": " + describe(e));
        }
    }

    private static MetadataDecodeException invalid(String source, String message) {
        return new MetadataDecodeException(FailureCode.INVALID_OBJECT, source + ": " + message);
    }

    private static String describeType(JsonNode v) {
        return v == null ? "nothing" : v.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }

    /** One line a user can act on: the field path (for binding errors) and what was wrong, with no Java class names. */
    static String describe(Exception e) {
        String message;
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            message = fieldPath(mapping) + ": " + firstLine(mapping.getOriginalMessage());
        } else if (e instanceof JsonProcessingException processing) {
            var location = processing.getLocation();
            message = firstLine(processing.getOriginalMessage())
                    + (location == null ? "" : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")");
        } else {
            message = firstLine(e.getMessage());
        }
        return message.replaceAll("`[a-zA-Z0-9_.$]+\\.([A-Za-z0-9_$]+)`", "$1");
    }

    private static String fieldPath(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (path.length() > 0) {
                    path.append('.');
                }
                path.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
