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
    void kindsMetav1RegistersEverywhereDecodeIntoTheirOwnTypesAndFailToConvert() {
        assertMessage("{\"apiVersion\":\"example.com/v1\",\"kind\":\"Status\"}", INVALID_OBJECT,
                "convert example.com/v1, Kind=Status: converting (v1.Status) to (metadata.DeviceMetadata): unknown conversion");
        assertMessage("{\"apiVersion\":\"v1\",\"kind\":\"APIGroupList\"}", INVALID_OBJECT,
                "convert /v1, Kind=APIGroupList: converting (v1.APIGroupList) to (metadata.DeviceMetadata): unknown conversion");
        assertMessage("{\"apiVersion\":\"" + V1BETA1 + "\",\"kind\":\"WatchEvent\"}", INVALID_OBJECT, "convert " + V1BETA1
                + ", Kind=WatchEvent: converting (v1.WatchEvent) to (metadata.DeviceMetadata): unknown conversion");
        assertMessage("{\"apiVersion\":\"metadata.resource.k8s.io/__internal\",\"kind\":\"WatchEvent\",\"Object\":{}}",
                INVALID_OBJECT, "decode metadata.resource.k8s.io/__internal: json: cannot unmarshal object into Go struct "
                        + "field InternalEvent.Object of type runtime.Object");
        assertMessage("{\"apiVersion\":\"x/v1\",\"kind\":\"Status\",\"code\":3000000000}", INVALID_OBJECT,
                "decode x/v1: json: cannot unmarshal number 3000000000 into Go struct field Status.code of type int32");
        assertMessage("{\"apiVersion\":\"metadata.resource.k8s.io/v1alpha1\",\"kind\":\"DeleteOptions\",\"dryRun\":[true]}",
                INVALID_OBJECT, "decode metadata.resource.k8s.io/v1alpha1: json: cannot unmarshal bool into Go struct "
                        + "field DeleteOptions.dryRun of type string");
    }

    @Test
    void theInternalVersionDecodesWithItsGoFieldNames() {
        DecodedMetadata d = TestStreams.decode("{\"apiVersion\":\"metadata.resource.k8s.io/__internal\",\"kind\":"
                + "\"DeviceMetadata\",\"name\":\"n\",\"podClaimName\":\"ignored\",\"PodClaimName\":\"p\"}");
        assertEquals("metadata.resource.k8s.io/__internal", d.sourceVersion());
        assertEquals("n", d.object().metadata().name());
        assertEquals("p", d.object().podClaimName());
        assertMessage("{\"apiVersion\":\"metadata.resource.k8s.io/__internal\",\"kind\":\"DeviceMetadata\",\"generation\":\"x\"}",
                INVALID_OBJECT, "decode metadata.resource.k8s.io/__internal: json: cannot unmarshal string into Go struct "
                        + "field DeviceMetadata.ObjectMeta.generation of type int64");
    }

    @Test
    void aValueThatIsNoObjectIsReadAsYaml() {
        assertMessage("\"a\\/b\"", INVALID_OBJECT, "decode metadata object: yaml: found unknown escape character");
        assertMessage("[1,\n\"\\ud83d\\ude00\"]", INVALID_OBJECT,
                "decode metadata object: yaml: line 2: found invalid Unicode character escape code");
        assertMessage("\"\u007f\"", INVALID_OBJECT, "decode metadata object: yaml: control characters are not allowed");
        MetadataDecodeException e = TestStreams.failure(new byte[] {'"', (byte) 0xc0, (byte) 0xaf, '"'});
        assertEquals("test.json: decode metadata object: yaml: invalid length of a UTF-8 sequence", e.getMessage());
        assertMessage("1e400", INVALID_OBJECT, "decode metadata object: couldn't get version/kind; json parse error: "
                + "json: cannot unmarshal string into Go value of type " + PEEK);
    }

    @Test
    void aNullApiVersionOrKindInAnotherCaseKeepsTheEarlierValue() {
        assertEquals(V1BETA1, TestStreams.decode(BETA + ",\"APIVERSION\":null,\"Kind\":null}").sourceVersion());
    }

    @Test
    void aRepeatedKeyFailsOnTheFirstTypeErrorAmongItsValues() {
        assertMessage(BETA + ",\"podClaimName\":\"a\",\"podClaimName\":true,\"podClaimName\":\"b\"}", INVALID_OBJECT,
                "decode " + V1BETA1 + ": json: cannot unmarshal bool into Go struct field DeviceMetadata.podClaimName of type string");
        assertMessage(BETA + ",\"metadata\":{\"generation\":1.5},\"podClaimName\":1,\"metadata\":{\"generation\":2}}",
                INVALID_OBJECT, "decode " + V1BETA1 + ": json: cannot unmarshal number 1.5 into Go struct field "
                        + "ObjectMeta.metadata.generation of type int64");
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
