package dev.dra.sidecar.decode;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import dev.dra.sidecar.decode.gojson.GoRepeatedKeys;
import dev.dra.sidecar.decode.gojson.GoScalarScanner;
import dev.dra.sidecar.decode.gojson.GoSyntaxScanner;
import dev.dra.sidecar.decode.gojson.GoText;
import dev.dra.sidecar.decode.gojson.GoTypes;
import dev.dra.sidecar.decode.gojson.GoUnicode;
import dev.dra.sidecar.decode.goyaml.GoYamlPath;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.model.KubernetesTime;
import dev.dra.sidecar.model.RawJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

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
    private static final ObjectReader BINDER = JSON.readerFor(DeviceMetadata.class);

    /** How Go names the type apimachinery's {@code SimpleMetaFactory} unmarshals an object into to find its kind. */
    private static final String GO_PEEK_TYPE =
            "struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }";
    /**
     * The name Go's metadata scheme gives itself in "no kind is registered" errors: its creator's call site, as a
     * program built with Go modules (v0.36 and v0.37 alike) reports it.
     */
    private static final String GO_SCHEME_NAME = "pkg/runtime/scheme.go:111";

    private MetadataStreamDecoder() {}

    /**
     * Decodes {@code stream}, the bytes of one file.
     *
     * @param source names the stream in failure messages (a file path)
     */
    public static DecodedMetadata decode(byte[] stream, String source) throws MetadataDecodeException {
        GoText.JsonText json = GoText.jsonText(stream);
        char[] text = json.text();
        List<String> unknown = new ArrayList<>();
        try (JsonParser parser = JSON.createParser(text)) {
            int offset = 0;
            for (int index = 0; (offset = more(text, offset)) >= 0; index++) {
                char first = text[offset];
                if (first != '{' && first != '[') {
                    // A scalar can never be an object: Go reads it completely and refuses it (or fails to read it).
                    throw notAnObject(source, readAsYaml(source, stream, index, GoScalarScanner.scan(text, offset)));
                }
                // Only check the syntax and find the end here: materialising the value (as a tree) would parse
                // every number in it, which for a megabyte of digits takes many seconds.
                parser.nextToken();
                parser.skipChildren();
                int end = (int) parser.currentLocation().getCharOffset();
                if (first == '[') {
                    throw notAnObject(source, readAsYaml(source, stream, index, "array"));
                }
                GroupVersionKind gvk = peekGroupVersionKind(json, offset, end, source);
                if (gvk.goType() != null) {
                    return new DecodedMetadata(bind(json, offset, end, gvk, source), gvk.groupVersion(),
                            List.copyOf(unknown));
                }
                unknown.add(gvk.groupVersion());
                offset = end;
            }
        } catch (IOException e) {
            String goWords = GoSyntaxScanner.firstError(stream);
            throw malformed(source, goWords != null ? goWords : ParseErrorText.describe(e));
        } catch (GoScalarScanner.SyntaxError e) {
            // Go quotes the offending byte, which the decoded text no longer has (a BOM is 'ï' to Go)
            String goWords = GoSyntaxScanner.firstError(stream);
            throw malformed(source, goWords != null ? goWords : e.getMessage());
        }
        if (unknown.isEmpty()) {
            throw new MetadataDecodeException(FailureCode.NO_METADATA_OBJECTS,
                    source + ": no metadata objects found in stream");
        }
        throw new MetadataDecodeException(FailureCode.NO_COMPATIBLE_VERSION, source
                + ": no compatible metadata version found in stream (unknown versions: " + list(unknown));
    }

    /**
     * The versions joined as Go joins them, then {@code )}, cut as every quote from the file is cut
     * ({@link #clip}): a file of many thousand tiny unknown objects would otherwise make a detail line of
     * hundreds of kilobytes. Joining stops once the cut is certain.
     */
    private static String list(List<String> versions) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < versions.size() && sb.length() <= MetadataDecodeException.MAX_MESSAGE; i++) {
            sb.append(i == 0 ? "" : ", ").append(versions.get(i));
        }
        return clip(sb.append(')').toString());
    }

    /** Cuts text quoted from the file (an apiVersion, a kind) so that no message exceeds a few hundred characters. */
    private static String clip(String s) {
        return GoText.clip(s, MetadataDecodeException.MAX_MESSAGE);
    }

    /**
     * Go's {@code json.Decoder.More}: another value follows unless only JSON whitespace remains or the next
     * byte closes an object or array (such a stream simply ends, it is not a syntax error).
     *
     * @return the offset of the next value, or -1 if there is none
     */
    private static int more(char[] text, int offset) {
        for (int i = offset; i < text.length; i++) {
            char c = text[i];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                continue;
            }
            return c != '}' && c != ']' ? i : -1;
        }
        return -1;
    }

    /**
     * Go's {@code SimpleMetaFactory.Interpret} then the serializer's kind and version checks: apiVersion and
     * kind are found among the top-level keys as {@code json.Unmarshal} finds them, by Go's case folding
     * ({@link GoUnicode#keyMatches}; in document order, the last string wins: a {@code null} keeps what an earlier
     * key gave), must be strings (or null), and the apiVersion must have at most one slash.
     */
    private static GroupVersionKind peekGroupVersionKind(GoText.JsonText json, int start, int end, String source)
            throws MetadataDecodeException, IOException {
        char[] text = json.text();
        String apiVersion = "";
        String kind = "";
        try (JsonParser object = JSON.createParser(text, start, end - start)) {
            object.nextToken(); // START_OBJECT
            while (object.nextToken() == JsonToken.FIELD_NAME) {
                String name = object.currentName();
                JsonToken value = object.nextToken();
                boolean isApiVersion = GoUnicode.keyMatches(name, "apiVersion");
                boolean isKind = GoUnicode.keyMatches(name, "kind");
                if (!isApiVersion && !isKind) {
                    object.skipChildren();
                    continue;
                }
                if (value != JsonToken.VALUE_STRING && value != JsonToken.VALUE_NULL) {
                    throw invalid(source, "decode metadata object: couldn't get version/kind; json parse error: "
                            + "json: cannot unmarshal " + goValueKind(value) + " into Go struct field ."
                            + (isApiVersion ? "apiVersion" : "kind") + " of type string");
                }
                if (value == JsonToken.VALUE_NULL) {
                    continue; // Go's null into a string leaves the value an earlier key gave it
                }
                String v = object.getText();
                if (isApiVersion) {
                    apiVersion = v;
                } else {
                    kind = v;
                }
            }
        }
        GroupVersionKind gvk = GroupVersionKind.parse(apiVersion, kind);
        if (gvk == null) {
            throw invalid(source, "decode metadata object: unexpected GroupVersion string: " + apiVersion);
        }
        if (kind.isEmpty()) {
            String what = gvk.version().isEmpty() ? "metadata object" : gvk.groupVersion();
            throw invalid(source, "decode " + what + ": Object 'Kind' is missing in '" + quoted(json.raw(), start, end) + "'");
        }
        if (gvk.version().isEmpty()) {
            throw invalid(source, "decode metadata object: Object 'apiVersion' is missing in '"
                    + quoted(json.raw(), start, end) + "'");
        }
        if (gvk.goType() == null && gvk.isRegisteredVersion()) {
            throw invalid(source, "decode " + gvk.groupVersion() + ": no kind " + GoUnicode.quote(kind)
                    + " is registered for version \"" + gvk.groupVersion() + "\" in scheme \"" + GO_SCHEME_NAME + "\"");
        }
        return gvk;
    }

    /**
     * Binds the (syntactically valid) object between {@code start} and {@code end} to the Go type's fields.
     * A value of the wrong type fails in Go's words ({@code json: cannot unmarshal ...}), a malformed
     * timestamp with Go's {@code time.Parse} error. An object that repeats a key is first folded as Go's
     * decoder folds it ({@link GoRepeatedKeys}).
     */
    private static DeviceMetadata bind(GoText.JsonText json, int start, int end, GroupVersionKind gvk, String source)
            throws MetadataDecodeException {
        GoTypes.Type type = gvk.goType();
        if (type != GoTypes.ROOT) {
            return bindOtherType(json, start, end, gvk, type, source);
        }
        try {
            return bind(json.text(), json.raw(), start, end, gvk, source, true);
        } catch (RepeatedKey e) {
            // Go decodes every value of a repeated key: the first type error among them is what it reports
            failOnGoError(json.text(), start, end, gvk, type, source);
            return bindRewritten(() -> GoRepeatedKeys.fold(json.text(), json.raw(), start, end, GoTypes.ROOT), gvk,
                    source);
        }
    }

    /**
     * An object Go decodes into a type other than a versioned {@code DeviceMetadata}: the internal
     * {@code DeviceMetadata} (served as the same object in {@code v1beta1}), or a metav1 kind, which fails in
     * its own fields or else in the conversion.
     */
    private static DeviceMetadata bindOtherType(GoText.JsonText json, int start, int end, GroupVersionKind gvk,
            GoTypes.Type type, String source) throws MetadataDecodeException {
        failOnGoError(json.text(), start, end, gvk, type, source);
        if (type != GoTypes.INTERNAL) {
            throw invalid(source, "convert " + gvk + ": converting (" + type.name() + ") to (metadata."
                    + DeviceMetadata.KIND + "): unknown conversion");
        }
        return bindRewritten(() -> InternalVersion.asV1beta1(json.text(), json.raw(), start, end), gvk, source);
    }

    /**
     * The object rewritten into text that binds to the model as Go decodes the object: with its repeated keys
     * folded, or the internal version's object as v1beta1. Such text repeats no key.
     */
    @FunctionalInterface
    private interface Rewrite {
        char[] text() throws IOException;
    }

    /** Binds the text {@code rewrite} makes of the object; a rewrite that fails, fails as a binding does. */
    private static DeviceMetadata bindRewritten(Rewrite rewrite, GroupVersionKind gvk, String source)
            throws MetadataDecodeException {
        char[] text;
        try {
            text = rewrite.text();
        } catch (IOException io) {
            throw invalid(source, "decode " + gvk.groupVersion() + ": " + ParseErrorText.describe(io));
        }
        try {
            return bind(text, text, 0, text.length, gvk, source, false);
        } catch (RepeatedKey impossible) {
            throw new IllegalStateException("a folded object has no repeated key", impossible);
        }
    }

    private static void failOnGoError(char[] text, int start, int end, GroupVersionKind gvk, GoTypes.Type type,
            String source) throws MetadataDecodeException {
        String error;
        try {
            error = GoTypes.firstError(text, start, end, type, gvk.version());
        } catch (IOException e) {
            throw invalid(source, "decode " + gvk.groupVersion() + ": " + ParseErrorText.describe(e));
        }
        if (error != null) {
            throw invalid(source, "decode " + gvk.groupVersion() + ": " + error);
        }
    }

    /** Thrown when the object repeats a key and must be folded first. */
    private static final class RepeatedKey extends Exception {
        private static final long serialVersionUID = 1L;

        RepeatedKey() {
            super(null, null, false, false);
        }
    }

    private static DeviceMetadata bind(char[] text, char[] raw, int start, int end, GroupVersionKind gvk, String source,
            boolean detectRepeatedKeys) throws MetadataDecodeException, RepeatedKey {
        String prefix = "decode " + gvk.groupVersion() + ": ";
        try (JsonParser object = JSON.createParser(text, start, end - start)) {
            if (detectRepeatedKeys) {
                object.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            }
            try {
                DeviceMetadata decoded = BINDER.withAttribute(RawJson.Source.class, new RawJson.Source(raw, start))
                        .readValue(object);
                return decoded.withApiVersion(gvk.groupVersion());
            } catch (KubernetesTime.InvalidTimeException e) {
                throw invalid(source, prefix + e.getOriginalMessage());
            } catch (JsonMappingException e) {
                if (isRepeatedKey(e)) {
                    throw new RepeatedKey();
                }
                // Go decodes on after a type error, and a malformed timestamp after it is what Go reports
                String goWords = GoTypes.firstError(text, start, end, GoTypes.ROOT, gvk.version());
                if (goWords == null) {
                    goWords = GoTypes.typeError(e, object, gvk.version());
                }
                throw invalid(source, prefix + (goWords != null ? goWords : ParseErrorText.describe(e)));
            }
        } catch (IOException | IllegalArgumentException e) {
            if (isRepeatedKey(e)) {
                throw new RepeatedKey();
            }
            throw invalid(source, prefix + ParseErrorText.describe(e));
        }
    }

    private static boolean isRepeatedKey(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof com.fasterxml.jackson.core.JsonParseException parse
                    && parse.getOriginalMessage() != null && parse.getOriginalMessage().startsWith("Duplicate field")) {
                return true;
            }
        }
        return false;
    }

    private static MetadataDecodeException invalid(String source, String message) {
        return new MetadataDecodeException(FailureCode.INVALID_OBJECT, source + ": " + clip(message));
    }

    /**
     * A complete value that is not an object, as apimachinery refuses it: {@code null} unmarshals into the
     * apiVersion/kind peek as nothing (so the kind is missing), anything else fails that unmarshal.
     */
    private static MetadataDecodeException notAnObject(String source, String type) {
        if (type.equals("null")) {
            return invalid(source, "decode metadata object: Object 'Kind' is missing in 'null'");
        }
        return invalid(source, "decode metadata object: couldn't get version/kind; json parse error: json: cannot "
                + "unmarshal " + (type.equals("boolean") ? "bool" : type) + " into Go value of type " + GO_PEEK_TYPE);
    }

    /**
     * The JSON type Go's YAML path ({@link GoYamlPath}) gives top-level value {@code index} of JSON type
     * {@code type}, or the failure when YAML refuses it.
     */
    private static String readAsYaml(String source, byte[] stream, int index, String type) throws MetadataDecodeException {
        int[] bounds = GoSyntaxScanner.valueBounds(stream, index);
        if (bounds == null) {
            return type;
        }
        String error = GoYamlPath.error(stream, bounds[0], bounds[1]);
        if (error != null) {
            throw invalid(source, "decode metadata object: " + error);
        }
        return type.equals("number") && GoYamlPath.isNumberReadAsString(stream, bounds[0], bounds[1]) ? "string" : type;
    }

    private static MetadataDecodeException malformed(String source, String message) {
        return new MetadataDecodeException(FailureCode.MALFORMED_STREAM,
                source + ": read metadata object from stream: " + clip(message));
    }

    /**
     * The object's text as Go's serializer quotes it in an error ({@code string(originalData)}), as far as a
     * message keeps it: {@link #invalid} cuts it.
     */
    private static String quoted(char[] raw, int start, int end) {
        return new String(raw, start, Math.min(end - start, MetadataDecodeException.MAX_MESSAGE + 1));
    }

    /** How Go's {@code json.UnmarshalTypeError} names a JSON value that is not a string. */
    private static String goValueKind(JsonToken token) {
        return switch (token) {
            case START_OBJECT -> "object";
            case START_ARRAY -> "array";
            case VALUE_TRUE, VALUE_FALSE -> "bool";
            default -> "number";
        };
    }
}
