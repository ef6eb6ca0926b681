package dev.dra.sidecar.decode;

import static dev.dra.sidecar.decode.FailureCode.INVALID_OBJECT;
import static dev.dra.sidecar.decode.FailureCode.MALFORMED_STREAM;
import static dev.dra.sidecar.decode.TestStreams.BETA;
import static dev.dra.sidecar.decode.TestStreams.V1BETA1;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the Go oracle ({@code GoOracleDifferentialIT}) found the sidecar doing differently from the upstream
 * reader (v0.37.2), each pinned in Go's exact words or violations. The conformance set has the same cases
 * through HTTP.
 */
class GoOracleFindingsTest {

    private static final String PEEK = "struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; "
            + "Kind string \"json:\\\"kind,omitempty\\\"\" }";

    @Test
    void aMissingKindOrApiVersionQuotesTheObjectAsItWasWritten() {
        assertMessage("{\"apiVersion\":\"metadata.k8s.io/v99\" , \"x\":\"\\u00e9\"}", INVALID_OBJECT,
                "decode metadata.k8s.io/v99: Object 'Kind' is missing in '{\"apiVersion\":\"metadata.k8s.io/v99\" , \"x\":\"\\u00e9\"}'");
        assertMessage("{\"kind\":\"DeviceMetadata\"}", INVALID_OBJECT,
                "decode metadata object: Object 'apiVersion' is missing in '{\"kind\":\"DeviceMetadata\"}'");
    }

    @Test
    void aLongQuotedObjectIsCut() {
        String object = "{\"apiVersion\":\"" + V1BETA1 + "\",\"podClaimName\":\"" + "p".repeat(2000) + "\"}";
        String message = TestStreams.failure(TestStreams.utf8(object)).getMessage();
        String goError = "decode " + V1BETA1 + ": Object 'Kind' is missing in '" + object + "'";
        assertEquals("test.json: " + goError.substring(0, 500) + "...", message);
    }

    @Test
    void anApiVersionOrKindThatIsNoStringFailsInGoWords() {
        assertMessage("{\"kind\":{},\"apiVersion\":\"" + V1BETA1 + "\"}", INVALID_OBJECT,
                "decode metadata object: couldn't get version/kind; json parse error: json: cannot unmarshal object into "
                        + "Go struct field .kind of type string");
        assertMessage("{\"KIND\":\"DeviceMetadata\",\"ApiVersion\":true}", INVALID_OBJECT,
                "decode metadata object: couldn't get version/kind; json parse error: json: cannot unmarshal bool into "
                        + "Go struct field .apiVersion of type string");
    }

    @Test
    void aValueThatIsNoObjectFailsInGoWords() {
        assertMessage("\"x\"", INVALID_OBJECT,
                "decode metadata object: couldn't get version/kind; json parse error: json: cannot unmarshal string into "
                        + "Go value of type " + PEEK);
        assertMessage("[]", INVALID_OBJECT,
                "decode metadata object: couldn't get version/kind; json parse error: json: cannot unmarshal array into "
                        + "Go value of type " + PEEK);
        assertMessage("null", INVALID_OBJECT, "decode metadata object: Object 'Kind' is missing in 'null'");
    }

    @Test
    void aByteOrderMarkIsQuotedAsItsFirstByte() {
        assertMessage("\ufeff" + BETA + "}", MALFORMED_STREAM,
                "read metadata object from stream: invalid character '\u00ef' looking for beginning of value");
    }

    @Test
    void anUnregisteredKindOfAKnownVersionNamesTheScheme() {
        assertMessage("{\"kind\":\"X\",\"apiVersion\":\"" + V1BETA1 + "\"}", INVALID_OBJECT,
                "decode " + V1BETA1 + ": no kind \"X\" is registered for version \"" + V1BETA1
                        + "\" in scheme \"pkg/runtime/scheme.go:111\"");
    }

    @Test
    void aKindNotRegisteredInTheCoreVersionNamesTheScheme() {
        // metav1's unversioned kinds make the scheme know "v1", so such an object is an error, not skipped
        assertMessage("{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"v1\"}", INVALID_OBJECT,
                "decode v1: no kind \"DeviceMetadata\" is registered for version \"v1\" in scheme \"pkg/runtime/scheme.go:111\"");
    }

    @Test
    void anUnregisteredKindIsQuotedAsGoQuotes() {
        assertMessage("{\"kind\":\"\\u0000\\t\\\"\u00e9\\u0085\",\"apiVersion\":\"" + V1BETA1 + "\"}", INVALID_OBJECT,
                "decode " + V1BETA1 + ": no kind \"\\x00\\t\\\"\u00e9\\u0085\" is registered for version \"" + V1BETA1
                        + "\" in scheme \"pkg/runtime/scheme.go:111\"");
    }

    @Test
    void ownerReferencesAndManagedFieldsFollowTheObjectMetaRules() {
        assertViolations(BETA + ",\"metadata\":{\"ownerReferences\":[{\"name\":\"n\"},null],"
                + "\"managedFields\":[{},{\"operation\":\"Patch\"},{\"operation\":\"Apply\"}]}}", List.of(
                        "metadata.ownerReferences[0].apiVersion Required", "metadata.ownerReferences[0].kind Required",
                        "metadata.ownerReferences[0].uid Required", "metadata.ownerReferences[1].apiVersion Required",
                        "metadata.ownerReferences[1].kind Required", "metadata.ownerReferences[1].name Required",
                        "metadata.ownerReferences[1].uid Required", "metadata.managedFields[0].operation Required",
                        "metadata.managedFields[1].operation NotSupported"));
    }

    @Test
    void anAttributeWithoutAValueIsInvalid() {
        assertViolations(device("\"attributes\":{\"a\":{},\"b\":null}"),
                List.of("requests[0].devices[0].attributes[a] Invalid", "requests[0].devices[0].attributes[b] Invalid"));
    }

    @Test
    void tooManyAttributesOrIpsAreNotLookedAtOneByOne() {
        StringBuilder attributes = new StringBuilder();
        for (int i = 0; i < 33; i++) {
            attributes.append(i == 0 ? "" : ",").append("\"a").append(i).append("\":{}");
        }
        assertViolations(device("\"attributes\":{" + attributes + "}"), List.of("requests[0].devices[0].attributes TooMany"));
        assertViolations(device("\"networkData\":{\"ips\":[" + "\"10.0.0.1/24\",".repeat(16) + "\"10.0.0.1/24\"]}"),
                List.of("requests[0].devices[0].networkData.ips TooMany"));
    }

    @Test
    void namesReportEveryBrokenRule() {
        // a label too long and malformed: two problems; a driver's length counts characters, not bytes
        assertViolations(device("\"name\":\"" + "A".repeat(64) + "\""), List.of(
                "requests[0].devices[0].name Invalid", "requests[0].devices[0].name Invalid"));
        assertViolations(device("\"driver\":\"" + "\u00e9".repeat(32) + "\""), List.of("requests[0].devices[0].driver Invalid"));
        assertViolations(device("\"driver\":\"" + "\u00e9".repeat(64) + "\""), List.of(
                "requests[0].devices[0].driver Invalid", "requests[0].devices[0].driver TooLong"));
        assertViolations(device("\"pool\":\"a//B_\""), List.of(
                "requests[0].devices[0].pool Invalid", "requests[0].devices[0].pool Invalid"));
    }

    /** A v1beta1 object with one device: driver, pool and name valid unless {@code members} overrides them. */
    private static String device(String members) {
        String defaults = "\"driver\":\"d.example.com\",\"pool\":\"p\",\"name\":\"n\"";
        for (String key : List.of("driver", "pool", "name")) {
            if (members.startsWith("\"" + key + "\"")) {
                defaults = defaults.replaceFirst("\"" + key + "\":\"[^\"]*\",?", "");
            }
        }
        String all = defaults.isEmpty() ? members : defaults.replaceAll(",$", "") + "," + members;
        return BETA + ",\"requests\":[{\"name\":\"r\",\"devices\":[{" + all + "}]}]}";
    }

    private static void assertMessage(String stream, FailureCode code, String goError) {
        MetadataDecodeException e = TestStreams.failure(TestStreams.utf8(stream));
        assertEquals(code, e.code(), e::getMessage);
        assertEquals("test.json: " + goError, e.getMessage());
    }

    private static void assertViolations(String stream, List<String> expected) {
        List<String> actual = MetadataValidator.validate(TestStreams.decode(stream).object()).stream()
                .map(v -> v.field() + " " + v.type()).sorted().toList();
        assertEquals(expected.stream().sorted().toList(), actual);
    }
}
