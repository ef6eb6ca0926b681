package dev.dra.sidecar.decode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dra.sidecar.testsupport.GoOracle;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How an answer of the sidecar is held against the Go oracle's answer for the same input. Each method returns
 * the difference in words, or {@code null} when the two agree:
 * <ul>
 * <li>a success must be a success, with the same object as Go reads and marshals it (the sidecar's body read
 *     back through Go, so that members Go always writes and members the sidecar leaves out compare equal);
 * <li>a failure must be a failure of the outcome class the Go error text stands for (the problem {@code code}),
 *     with Go's error text, where the sidecar may cut a long quote from the file (it ends with {@code ...});
 * <li>validation violations must be the same (field path, type) pairs; their messages are the sidecar's own words.
 * </ul>
 */
final class GoVerdicts {

    private final GoOracle oracle;

    GoVerdicts(GoOracle oracle) {
        this.oracle = oracle;
    }

    /** The problem {@code code} the sidecar gives for a failure of {@code DecodeMetadataFromStream} with this text. */
    static String code(String goError) {
        if (goError.startsWith("no metadata objects found in stream")) {
            return "no-metadata-objects";
        }
        if (goError.startsWith("read metadata object from stream: ")) {
            return "malformed-stream";
        }
        if (goError.startsWith("no compatible metadata version found in stream")) {
            return "no-compatible-version";
        }
        return "invalid-object";
    }

    /** A {@code POST /validate} report against Go's decode of the same stream. */
    String decode(JsonNode go, JsonNode report) {
        if (!go.path("ok").asBoolean()) {
            String error = go.path("error").asText();
            if (report.path("decoded").asBoolean()) {
                return "Go fails (" + error + "), the sidecar decodes " + report.path("object");
            }
            return failure(error, report.path("error").path("code").asText(),
                    report.path("error").path("message").asText().replaceFirst("^stream: ", ""));
        }
        if (!report.path("decoded").asBoolean()) {
            return "Go decodes " + go.path("object") + ", the sidecar fails: " + report.path("error");
        }
        if (!go.path("apiVersion").asText().equals(report.path("apiVersion").asText())) {
            return "apiVersion: Go " + go.path("apiVersion") + ", the sidecar " + report.path("apiVersion");
        }
        String object = object(go.path("object"), report.path("object"));
        return object != null ? object : violationsOf(go, report.path("violations"));
    }

    /** The violations of Go's successful decode {@code go} against the sidecar's for the same file. */
    static String violationsOf(JsonNode go, JsonNode sidecar) {
        return cannotValidateInternal(go) ? null : violations(go.path("violations"), sidecar);
    }

    /**
     * Go's validation API cannot validate an object of the internal version (its one "violation" is no field
     * error); the sidecar validates what it serves, the same object in v1beta1, by the v1beta1 rules
     * (docs/go-oracle.md).
     */
    private static boolean cannotValidateInternal(JsonNode go) {
        JsonNode violations = go.path("violations");
        return go.path("apiVersion").asText().equals(ApimachineryMutations.INTERNAL) && violations.size() == 1
                && violations.get(0).path("type").asText().equals("NotAFieldError")
                && violations.get(0).path("detail").asText().equals("cannot validate object of type *metadata.DeviceMetadata");
    }

    /** A served answer ({@code status}, body) against Go's answer for the same read. */
    String served(JsonNode go, int status, JsonNode body, String root) {
        if (!go.path("ok").asBoolean()) {
            String error = go.path("error").asText();
            if (status == 200) {
                return "Go fails (" + error + "), the sidecar serves " + body;
            }
            return failure(error, body.path("code").asText(), body.path("detail").asText().replace(root, GoOracle.CONTAINER_DIR));
        }
        if (status != 200) {
            return "Go reads " + go.path("object") + ", the sidecar answers " + status + " " + body;
        }
        return object(go.path("object"), body);
    }

    /**
     * A merged request view against Go's merged read: the sidecar's merged {@code metadata} (name, namespace
     * and uid when all files agree) is a documented choice and left out of the comparison.
     */
    String merged(JsonNode go, int status, JsonNode body, String root) {
        if (status == 200 && body instanceof ObjectNode object) {
            ObjectNode withoutMetadata = object.deepCopy();
            withoutMetadata.remove("metadata");
            return served(go, status, withoutMetadata, root);
        }
        return served(go, status, body, root);
    }

    private static String failure(String goError, String code, String message) {
        String goCode = code(goError.replaceFirst("^" + java.util.regex.Pattern.quote(GoOracle.CONTAINER_DIR) + "/[^:]*: ", ""));
        if (!goCode.equals(code)) {
            return "code: Go's error (" + goError + ") is " + goCode + ", the sidecar says " + code + " (" + message + ")";
        }
        if (!sameText(goError, message)) {
            return "error text:\n  Go:      " + goError + "\n  sidecar: " + message;
        }
        return null;
    }

    /** A number literal Go quotes in a type error, beyond the 64 characters the sidecar keeps of it. */
    private static final Pattern LONG_LITERAL = Pattern.compile("(cannot unmarshal number )([^ ]{64})[^ ]+( into )");

    /**
     * Go's error text, or (as the sidecar documents) the same cut after a few hundred characters of the part that
     * quotes the file, marked by {@code ...}; a number literal in a type error longer than 64 characters is cut
     * to those and {@code ...}, so that the field path after it stays in the detail.
     */
    private static boolean sameText(String goError, String message) {
        goError = LONG_LITERAL.matcher(goError).replaceFirst("$1$2...$3");
        if (goError.equals(message)) {
            return true;
        }
        String kept = message.endsWith("...") ? message.substring(0, message.length() - 3) : null;
        return kept != null && goError.length() > kept.length() && goError.startsWith(kept);
    }

    private String object(JsonNode goObject, JsonNode served) {
        JsonNode canonical = oracle.canonical(served);
        if (!canonical.path("ok").asBoolean()) {
            return "Go cannot read the served object back (" + canonical.path("error") + "): " + served;
        }
        if (!canonical.path("object").equals(goObject)
                && !withoutFieldsV1BadBytes(canonical.path("object")).equals(withoutFieldsV1BadBytes(goObject))) {
            return "object: " + TestStreams.firstDifference(goObject, canonical.path("object"), "$")
                    + "\n  Go:      " + goObject + "\n  sidecar: " + canonical.path("object");
        }
        return null;
    }

    /**
     * {@code object} with every run of U+FFFD inside {@code fieldsV1} made one: where a file has bytes that are not
     * UTF-8 there, Go keeps them as they are and the sidecar serves U+FFFD (a documented difference), so the
     * number of replacement characters a reader of Go's bytes sees is no property of the sidecar.
     */
    private static JsonNode withoutFieldsV1BadBytes(JsonNode object) {
        JsonNode copy = object.deepCopy();
        for (JsonNode entry : copy.path("metadata").path("managedFields")) {
            if (entry instanceof com.fasterxml.jackson.databind.node.ObjectNode e && e.has("fieldsV1")) {
                try {
                    e.set("fieldsV1", GoOracle.JSON.readTree(GoOracle.JSON.writeValueAsString(e.get("fieldsV1"))
                            .replaceAll("\uFFFD+", "\uFFFD")));
                } catch (com.fasterxml.jackson.core.JsonProcessingException impossible) {
                    throw new IllegalStateException(impossible);
                }
            }
        }
        return copy;
    }

    /**
     * Violations as sorted "field type" pairs; Go's "FieldValue" type prefix is dropped by the oracle. As
     * documented, a pool name's segments past {@link MetadataValidator#MAX_POOL_SEGMENTS} are not examined by
     * the sidecar: where it says so, Go's violations of those segments of that field are left out.
     */
    static String violations(JsonNode go, JsonNode sidecar) {
        Set<String> unexamined = new HashSet<>();
        sidecar.forEach(v -> {
            if (v.path("message").asText().equals(MetadataValidator.POOL_SEGMENTS_NOT_EXAMINED)) {
                unexamined.add(v.path("field").asText());
            }
        });
        List<String> expected = pairs(go, v -> unexamined.contains(v.path("field").asText())
                && segment(v.path("detail").asText()) >= MetadataValidator.MAX_POOL_SEGMENTS);
        List<String> actual = pairs(sidecar, v -> v.path("message").asText().equals(MetadataValidator.POOL_SEGMENTS_NOT_EXAMINED));
        return expected.equals(actual) ? null : "violations:\n  Go:      " + expected + "\n  sidecar: " + actual;
    }

    private static final Pattern SEGMENT = Pattern.compile("segment (\\d+): .*");

    /** The pool segment a violation's detail names, or -1. */
    private static long segment(String detail) {
        Matcher m = SEGMENT.matcher(detail);
        return m.matches() ? Long.parseLong(m.group(1)) : -1;
    }

    private static List<String> pairs(JsonNode violations, Predicate<JsonNode> leftOut) {
        List<String> out = new ArrayList<>();
        violations.forEach(v -> {
            if (!leftOut.test(v)) {
                out.add(v.path("field").asText() + " " + v.path("type").asText());
            }
        });
        out.sort(null);
        return out;
    }
}
