package dev.dra.sidecar.decode;

import static dev.dra.sidecar.decode.FailureCode.INVALID_OBJECT;
import static dev.dra.sidecar.decode.FailureCode.MALFORMED_STREAM;
import static dev.dra.sidecar.decode.FailureCode.NO_COMPATIBLE_VERSION;
import static dev.dra.sidecar.decode.FailureCode.NO_METADATA_OBJECTS;
import static dev.dra.sidecar.decode.TestStreams.ALPHA;
import static dev.dra.sidecar.decode.TestStreams.BETA;
import static dev.dra.sidecar.decode.TestStreams.UNKNOWN;
import static dev.dra.sidecar.decode.TestStreams.V1ALPHA1;
import static dev.dra.sidecar.decode.TestStreams.V1BETA1;
import static dev.dra.sidecar.decode.TestStreams.assertFails;
import static dev.dra.sidecar.decode.TestStreams.decode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.model.DeviceAttribute;
import dev.dra.sidecar.model.DeviceMetadata;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stream shapes and values where a naive JSON reader and Go's {@code encoding/json} + apimachinery disagree;
 * each case asserts Go's outcome (spec §3, §6.3).
 */
class DecoderEdgeCasesTest {

    /** A v1alpha1 stream whose one device has the attribute {@code a} = {@code attributeJson}. */
    static String withAttribute(String attributeJson) {
        return ALPHA + ",\"requests\":[{\"name\":\"r\",\"devices\":[{\"driver\":\"d\",\"pool\":\"p\",\"name\":\"n\","
                + "\"attributes\":{\"a\":" + attributeJson + "}}]}]}";
    }

    static DeviceAttribute attribute(DeviceMetadata dm) {
        return dm.requests().get(0).devices().get(0).attributes().get("a");
    }

    static String withGeneration(String generationJson) {
        return ALPHA + ",\"metadata\":{\"name\":\"c\",\"generation\":" + generationJson + "}}";
    }

    static String withPodClaimName(String json) {
        return ALPHA + ",\"podClaimName\":" + json + "}";
    }

    static byte[] concat(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            byte[] b = p instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : (byte[]) p;
            out.writeBytes(b);
        }
        return out.toByteArray();
    }

    @Nested
    class StreamShape {

        @Test
        void objectsGluedWithoutWhitespace() {
            DecodedMetadata d = decode(UNKNOWN + UNKNOWN.replace("v1000", "v2000") + BETA + "}" + ALPHA + "}");
            assertEquals(V1BETA1, d.sourceVersion());
            assertEquals(List.of("metadata.resource.k8s.io/v1000", "metadata.resource.k8s.io/v2000"), d.skippedVersions());
        }

        @Test
        void goWhitespaceBetweenObjects() {
            assertEquals(V1ALPHA1, decode("\r\n\t " + UNKNOWN + " \r\n\t" + ALPHA + "}\n").sourceVersion());
        }

        @ParameterizedTest
        @ValueSource(strings = {"\f", "\u000b", "\u00a0", "\u2028", "\ufeff"})
        void otherWhitespaceIsASyntaxError(String space) {
            assertFails(UNKNOWN + space + ALPHA + "}", MALFORMED_STREAM, "read metadata object from stream");
        }

        @ParameterizedTest
        @ValueSource(strings = {"]", "}", "] garbage {", "}}}", " \n]" + "{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"metadata.resource.k8s.io/v1alpha1\"}"})
        void closingByteAfterAnUnknownObjectEndsTheStream(String tail) {
            // Go's Decoder.More is false at '}' or ']': the loop ends, what follows is never read
            assertFails(UNKNOWN + tail, NO_COMPATIBLE_VERSION, "no compatible metadata version found in stream",
                    "(unknown versions: metadata.resource.k8s.io/v1000)");
        }

        @ParameterizedTest
        @ValueSource(strings = {"]", "}", "  }{}", "\n]x"})
        void closingByteFirstMeansNoObjects(String stream) {
            assertFails(stream, NO_METADATA_OBJECTS, "test.json: no metadata objects found in stream");
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " ", "\n\n", " \t\r\n"})
        void emptyOrWhitespaceOnly(String stream) {
            assertFails(stream, NO_METADATA_OBJECTS, "no metadata objects found in stream");
        }

        @Test
        void unknownVersionsAreListedInStreamOrder() {
            assertFails(UNKNOWN.replace("v1000", "v99") + UNKNOWN.replace("metadata.resource.k8s.io/v1000", "v2"),
                    NO_COMPATIBLE_VERSION, "(unknown versions: metadata.resource.k8s.io/v99, v2)");
        }

        @Test
        void failureDetailsStayShortWhateverTheFileQuotes() {
            MetadataDecodeException many = assertFails(UNKNOWN.repeat(20_000), NO_COMPATIBLE_VERSION,
                    "(unknown versions: metadata.resource.k8s.io/v1000, metadata.resource.k8s.io/v1000", "more)");
            assertTrue(many.getMessage().length() < 1_000, many.getMessage());
            String huge = "v".repeat(100_000);
            assertTrue(assertFails("{\"kind\":\"K\",\"apiVersion\":\"a/b/" + huge + "\"}", INVALID_OBJECT,
                    "unexpected GroupVersion string: a/b/vvv").getMessage().length() < 1_000);
            assertTrue(assertFails("{\"kind\":\"" + huge + "\",\"apiVersion\":\"" + V1BETA1 + "\"}", INVALID_OBJECT,
                    "decode " + V1BETA1).getMessage().length() < 1_000);
            assertTrue(assertFails(withGeneration("0." + "1".repeat(100_000)), INVALID_OBJECT, "metadata.generation")
                    .getMessage().length() < 1_000);
        }

        @Test
        void trailingJunkAfterTheChosenObjectIsNeverRead() {
            assertEquals(V1ALPHA1, decode(ALPHA + "}{broken").sourceVersion());
            assertEquals(V1ALPHA1, decode(ALPHA + "}\u0000\u0001 \"unterminated").sourceVersion());
            assertEquals(V1ALPHA1, decode(ALPHA + "}" + BETA + ",\"requests\":\"x\"}").sourceVersion());
            assertEquals(V1BETA1, TestStreams.decode(BETA + "}" + "[".repeat(20_000)).sourceVersion());
        }

        @Test
        void firstKnownVersionWinsWhateverItIs() {
            DecodedMetadata d = decode(ALPHA + ",\"podClaimName\":\"a\"}" + BETA + ",\"podClaimName\":\"b\"}");
            assertEquals(V1ALPHA1, d.sourceVersion());
            assertEquals("a", d.object().podClaimName());
            assertEquals(V1ALPHA1, d.object().apiVersion());
        }

        @Test
        void malformedObjectAfterAnUnknownIsASyntaxError() {
            assertFails(UNKNOWN + "\n{\"kind\":", MALFORMED_STREAM, "test.json: read metadata object from stream");
            assertFails(UNKNOWN + "\n{not-json}", MALFORMED_STREAM, "read metadata object from stream");
        }

        @Test
        void nulBytes() {
            assertFails("\u0000", MALFORMED_STREAM, "read metadata object from stream");
            assertFails(UNKNOWN + "\u0000" + ALPHA + "}", MALFORMED_STREAM, "read metadata object from stream");
            assertFails(withPodClaimName("\"a\u0000b\""), MALFORMED_STREAM, "read metadata object from stream");
            assertEquals("a\u0000b", decode(withPodClaimName("\"a\\u0000b\"")).object().podClaimName());
        }

        @Test
        void utf8ByteOrderMarkIsNotWhitespaceToGo() {
            assertFails(concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, ALPHA + "}"), MALFORMED_STREAM,
                    "read metadata object from stream");
        }
    }

    @Nested
    class RootValues {

        @ParameterizedTest
        @ValueSource(strings = {"[]", "[{\"kind\":\"DeviceMetadata\"}]", "\"x\"", "5", "-0.5e3", "null", "true", "false",
            "5}", "5{}", "01", "truex", "\"a\"\"b\"", "nullnull"})
        void aCompleteValueThatIsNotAnObjectIsAnInvalidObject(String root) {
            // Go's Decoder returns the complete value (a scalar ends at the first byte that cannot continue it);
            // apimachinery then refuses it, whatever follows
            assertFails(root, INVALID_OBJECT, "test.json: decode metadata object: ", "expected an object");
            assertFails(UNKNOWN + "\n" + root, INVALID_OBJECT, "decode metadata object: ");
        }

        @ParameterizedTest
        @ValueSource(strings = {"tru", "nul", "-", "-x", "1.", "1.e5", "1e", "1e+", "\"abc", "\"\\x\"", "\"\\u12G4\"",
            "\"a\tb\"", "x", "'a'", "[1,", "[1,]", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{a:1}", "+1", ".5", "NaN",
            "{\"a\":01}", "{\"a\":1.}", "{\"a\":tru}", "{\"a\":truex}", "{\"a\":\"x\" \"b\":1}", "/* c */ {}"})
        void syntaxErrorsAreMalformed(String stream) {
            assertFails(stream, MALFORMED_STREAM, "test.json: read metadata object from stream: ");
        }

        @Test
        void emptyObject() {
            assertFails("{}", INVALID_OBJECT, "decode metadata object", "Kind");
        }
    }

    @Nested
    class GroupVersionKinds {

        @Test
        void apiVersionAndKindKeysMatchCaseInsensitively() {
            DecodedMetadata d = decode("{\"KIND\":\"DeviceMetadata\",\"APIVERSION\":\"" + V1BETA1 + "\",\"podClaimName\":\"p\"}");
            assertEquals(V1BETA1, d.sourceVersion());
            assertEquals("p", d.object().podClaimName());
            assertEquals(V1ALPHA1, decode("{\"Kind\":\"DeviceMetadata\",\"apiversion\":\"" + V1ALPHA1 + "\"}").sourceVersion());
        }

        @Test
        void theLastMatchingKeyInDocumentOrderWins() {
            // Go's Unmarshal assigns keys in order; a tree keyed by name would keep "kind" at its first position
            DecodedMetadata d = decode("{\"kind\":\"X\",\"KIND\":\"Y\",\"kind\":\"DeviceMetadata\",\"apiVersion\":\"v0/x\","
                    + "\"APIVERSION\":\"" + V1BETA1 + "\"}");
            assertEquals(V1BETA1, d.sourceVersion());
            assertFails("{\"kind\":\"DeviceMetadata\",\"Kind\":\"Other\",\"apiVersion\":\"" + V1BETA1 + "\"}",
                    INVALID_OBJECT, "decode " + V1BETA1, "Other");
        }

        @Test
        void otherFieldNamesAreCaseSensitive() {
            DeviceMetadata dm = decode(ALPHA + ",\"PodClaimName\":\"x\",\"Requests\":[{\"name\":\"r\"}],"
                    + "\"metadata\":{\"Name\":\"n\",\"GENERATION\":\"not even a number\"}}").object();
            assertNull(dm.podClaimName());
            assertNull(dm.requests());
            assertNull(dm.metadata().name());
            assertNull(dm.metadata().generation());
        }

        @Test
        void kindIsCaseSensitiveInAKnownVersion() {
            assertFails("{\"kind\":\"devicemetadata\",\"apiVersion\":\"" + V1BETA1 + "\"}", INVALID_OBJECT,
                    "decode " + V1BETA1 + ": ", "devicemetadata");
        }

        @Test
        void knownVersionWithoutKindIsFatalEvenBeforeAGoodObject() {
            assertFails("{\"apiVersion\":\"" + V1ALPHA1 + "\"}" + ALPHA + "}", INVALID_OBJECT,
                    "decode " + V1ALPHA1 + ": ", "Kind");
        }

        @Test
        void unknownVersionWithoutKindCannotBeClassified() {
            assertFails("{\"apiVersion\":\"metadata.k8s.io/v99\"}" + ALPHA + "}", INVALID_OBJECT,
                    "decode metadata.k8s.io/v99: ", "Kind");
        }

        @Test
        void missingApiVersionIsFatal() {
            assertFails("{\"kind\":\"DeviceMetadata\"}" + ALPHA + "}", INVALID_OBJECT, "decode metadata object: ");
            assertFails("{\"kind\":\"DeviceMetadata\",\"apiVersion\":null}", INVALID_OBJECT, "decode metadata object: ");
            assertFails("{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"metadata.resource.k8s.io/\"}", INVALID_OBJECT,
                    "decode metadata object: ");
        }

        @ParameterizedTest
        @ValueSource(strings = {"metadata.resource.k8s.io/v1beta1/x", "a/b/c", "//"})
        void apiVersionWithTwoSlashes(String apiVersion) {
            assertFails("{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"" + apiVersion + "\"}", INVALID_OBJECT,
                    "decode metadata object: ", "unexpected GroupVersion string: " + apiVersion);
        }

        @ParameterizedTest
        @ValueSource(strings = {"5", "true", "{}", "[\"" + "metadata.resource.k8s.io/v1beta1" + "\"]"})
        void nonStringApiVersionOrKindIsFatal(String value) {
            assertFails("{\"kind\":\"DeviceMetadata\",\"apiVersion\":" + value + "}", INVALID_OBJECT, "decode metadata object: ");
            assertFails("{\"kind\":" + value + ",\"apiVersion\":\"" + V1BETA1 + "\"}", INVALID_OBJECT, "decode metadata object: ");
        }

        @Test
        void unknownGroupVersionsAreSkippedWhateverTheirKind() {
            DecodedMetadata d = decode("{\"kind\":\"Foo\",\"apiVersion\":\"example.com/v1\"}"
                    + "{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"v2\"}"
                    + "{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"metadata.resource.k8s.io/v1\",\"requests\":\"wrong\"}"
                    + "{\"kind\":\"Other\",\"apiVersion\":\"metadata.resource.k8s.io/__internal\"}"
                    + ALPHA + "}");
            assertEquals(List.of("example.com/v1", "v2", "metadata.resource.k8s.io/v1", "metadata.resource.k8s.io/__internal"),
                    d.skippedVersions());
        }

        @ParameterizedTest
        @ValueSource(strings = {
            "{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"v1\"}",
            "{\"kind\":\"Pod\",\"apiVersion\":\"v1\"}",
            "{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"/v1\"}",
            "{\"kind\":\"Status\",\"apiVersion\":\"example.com/v9\"}",
            "{\"kind\":\"APIGroupList\",\"apiVersion\":\"metadata.resource.k8s.io/v1000\"}",
            "{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"metadata.resource.k8s.io/__internal\"}",
            "{\"kind\":\"WatchEvent\",\"apiVersion\":\"metadata.resource.k8s.io/__internal\"}",
            "{\"kind\":\"WatchEvent\",\"apiVersion\":\"metadata.resource.k8s.io/v1beta1\"}"})
        void versionsAndKindsGosSchemeKnowsAreNotSkipped(String object) {
            // apimachinery skips only NotRegistered kinds of never-seen group/versions (spec 4.1, 6.3):
            // metav1.AddToGroupVersion registers v1 and unversioned kinds such as Status for any version
            assertFails(object + ALPHA + "}", INVALID_OBJECT, "test.json: decode ");
        }
    }

    @Nested
    class Numbers {

        @ParameterizedTest
        @ValueSource(longs = {9007199254740993L, Long.MAX_VALUE, Long.MIN_VALUE, -9007199254740993L, 0})
        void int64ValuesAreExact(long value) {
            assertEquals(value, decode(withGeneration(Long.toString(value))).object().metadata().generation());
            assertEquals(value, attribute(decode(withAttribute("{\"int\":" + value + "}")).object()).intValue());
            assertEquals(List.of(value, 1L), attribute(decode(withAttribute("{\"ints\":[" + value + ",1]}")).object()).ints());
        }

        @Test
        void negativeZeroIsZero() {
            assertEquals(0L, decode(withGeneration("-0")).object().metadata().generation());
        }

        @ParameterizedTest
        @ValueSource(strings = {"9223372036854775808", "-9223372036854775809", "18446744073709551616",
            "1234567890123456789012345678901234567890"})
        void outsideInt64IsAnInvalidObject(String value) {
            assertFails(withGeneration(value), INVALID_OBJECT, "decode " + V1ALPHA1 + ": ", "metadata.generation");
            assertFails(withAttribute("{\"int\":" + value + "}"), INVALID_OBJECT, "requests[0].devices[0].attributes.a.int");
        }

        @ParameterizedTest
        @ValueSource(strings = {"2.5", "2.0", "1e3", "1E3", "1e-0", "-0.0", "0.1e1"})
        void fractionalOrExponentIntsAreInvalidObjects(String value) {
            // Go parses an int64 field with strconv.ParseInt on the literal: 2.0 and 1e3 are refused
            assertFails(withGeneration(value), INVALID_OBJECT, "metadata.generation");
            assertFails(withAttribute("{\"int\":" + value + "}"), INVALID_OBJECT, "attributes.a.int");
            assertFails(withAttribute("{\"ints\":[1," + value + "]}"), INVALID_OBJECT, "attributes.a.ints");
        }

        @ParameterizedTest
        @ValueSource(strings = {"\"1\"", "true", "[1]", "{}", "\"\""})
        void nonNumberGenerationIsAnInvalidObject(String value) {
            assertFails(withGeneration(value), INVALID_OBJECT, "decode " + V1ALPHA1, "metadata.generation");
        }

        @Test
        void nullGenerationIsAbsent() {
            assertNull(decode(withGeneration("null")).object().metadata().generation());
        }

        @Test
        void thousandDigitNumbersInUnknownFieldsAreSkipped() {
            // Go has no limit on number length; Jackson's default (1,000 digits) is raised to the file size limit
            String digits = "9".repeat(100_000);
            assertEquals(V1ALPHA1, decode(ALPHA + ",\"x\":" + digits + ",\"y\":-0." + digits + "e-" + digits + "}").sourceVersion());
            assertEquals(V1ALPHA1, decode("{\"kind\":\"K\",\"apiVersion\":\"a/b\",\"n\":[" + digits + "]}" + ALPHA + "}").sourceVersion());
            assertFails(withGeneration(digits), INVALID_OBJECT, "metadata.generation");
        }

        @Test
        void megabyteNumberIsHandledQuickly() {
            String digits = "1".repeat((1 << 20) - 200);
            long start = System.nanoTime();
            assertFails(withGeneration(digits), INVALID_OBJECT, "metadata.generation");
            assertEquals(V1ALPHA1, decode(ALPHA + ",\"unknownField\":" + digits + "}").sourceVersion());
            assertFails(withGeneration("0." + digits), INVALID_OBJECT, "metadata.generation");
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(ms < 2_000, "three 1 MiB numbers took " + ms + " ms");
        }
    }

    @Nested
    class Types {

        @Test
        void numberWhereAStringIsExpected() {
            MetadataDecodeException e = assertFails(ALPHA + ",\"requests\":[{\"name\":\"r\",\"devices\":[{\"pool\":5}]}]}",
                    INVALID_OBJECT, "test.json: decode " + V1ALPHA1 + ": requests[0].devices[0].pool");
            assertTrue(!e.getMessage().contains("java.") && !e.getMessage().contains("dev.dra"), e.getMessage());
        }

        @ParameterizedTest
        @ValueSource(strings = {"0", "1", "\"true\"", "\"false\"", "\"\"", "[true]", "{}"})
        void boolOnlyFromJsonBooleans(String value) {
            assertFails(withAttribute("{\"bool\":" + value + "}"), INVALID_OBJECT, "attributes.a.bool");
            assertFails(withAttribute("{\"bools\":[" + value + "]}"), INVALID_OBJECT, "attributes.a.bools");
        }

        @ParameterizedTest
        @ValueSource(strings = {"\"x\"", "{}", "5", "true"})
        void wrongContainerTypesAreInvalidObjects(String value) {
            assertFails(ALPHA + ",\"requests\":" + value + "}", INVALID_OBJECT, "requests");
            assertFails(ALPHA + ",\"requests\":[{\"name\":\"r\",\"devices\":" + value + "}]}", INVALID_OBJECT, "devices");
        }

        @ParameterizedTest
        @ValueSource(strings = {"[]", "\"\"", "5", "[{}]"})
        void metadataMustBeAnObject(String value) {
            assertFails(ALPHA + ",\"metadata\":" + value + "}", INVALID_OBJECT, "metadata");
        }

        @Test
        void stringWhereANumberOrListIsExpected() {
            assertFails(withAttribute("{\"ints\":\"1\"}"), INVALID_OBJECT, "attributes.a.ints");
            assertFails(withAttribute("{\"strings\":\"x\"}"), INVALID_OBJECT, "attributes.a.strings");
            assertFails(withAttribute("{\"string\":[\"x\"]}"), INVALID_OBJECT, "attributes.a.string");
            assertFails(withAttribute("{\"version\":1.0}"), INVALID_OBJECT, "attributes.a.version");
        }

        @Test
        void unknownFieldsAreIgnoredAtEveryLevel() {
            DeviceMetadata dm = decode(ALPHA + ",\"extra\":{\"x\":[1,2,{\"y\":null}]},\"metadata\":{\"name\":\"c\",\"x\":1},"
                    + "\"requests\":[{\"name\":\"r\",\"x\":true,\"devices\":[{\"driver\":\"d\",\"pool\":\"p\",\"name\":\"n\","
                    + "\"capacity\":{\"memory\":\"1Gi\"},\"attributes\":{\"a\":{\"float\":1.5,\"string\":\"s\"}},"
                    + "\"networkData\":{\"addresses\":[\"x\"],\"ips\":[\"10.0.0.1/24\"]}}]}]}").object();
            assertEquals("c", dm.metadata().name());
            assertEquals("s", attribute(dm).stringValue());
            assertEquals(List.of("string"), attribute(dm).setMembers());
            assertEquals(List.of("10.0.0.1/24"), dm.requests().get(0).devices().get(0).networkData().ips());
        }

        @Test
        void deepNestingInsideAnUnknownFieldDecodes() {
            String deep = "[".repeat(5_000) + "]".repeat(5_000);
            assertEquals(V1ALPHA1, decode(ALPHA + ",\"x\":" + deep + "}").sourceVersion());
            assertEquals(V1ALPHA1, decode(UNKNOWN.replace("}", ",\"x\":" + deep + "}") + ALPHA + "}").sourceVersion());
        }

        @Test
        void nestingBeyondGosLimitIsASyntaxError() {
            // Go's scanner allows 10,000 levels, counting the object itself
            String ok = "[".repeat(9_999) + "]".repeat(9_999);
            String tooDeep = "[".repeat(10_000) + "]".repeat(10_000);
            assertEquals(V1ALPHA1, decode(ALPHA + ",\"x\":" + ok + "}").sourceVersion());
            assertFails(ALPHA + ",\"x\":" + tooDeep + "}", MALFORMED_STREAM, "read metadata object from stream");
            assertFails(UNKNOWN.replace("}", ",\"x\":" + tooDeep + "}") + ALPHA + "}", MALFORMED_STREAM,
                    "read metadata object from stream");
            assertFails("[".repeat(10_001) + "]".repeat(10_001), MALFORMED_STREAM, "read metadata object from stream");
            assertFails("[".repeat(10_000) + "]".repeat(10_000), INVALID_OBJECT, "expected an object");
        }
    }

    @Nested
    class Text {

        private String podClaimName(byte[] stream) throws MetadataDecodeException {
            return MetadataStreamDecoder.decode(stream, "test.json").object().podClaimName();
        }

        private byte[] podClaimNameBytes(int... middle) {
            byte[] b = new byte[middle.length];
            for (int i = 0; i < middle.length; i++) {
                b[i] = (byte) middle[i];
            }
            return concat(ALPHA + ",\"podClaimName\":\"a", b, "b\"}");
        }

        @Test
        void invalidUtf8InAStringBecomesOneReplacementPerByte() throws Exception {
            // Go: utf8.DecodeRune yields (RuneError, 1) for every byte that does not start a valid sequence
            assertEquals("a\uFFFDb", podClaimName(podClaimNameBytes(0xFF)));
            assertEquals("a\uFFFD\uFFFDb", podClaimName(podClaimNameBytes(0xE2, 0x82)));          // truncated 3-byte
            assertEquals("a\uFFFD\uFFFD\uFFFDb", podClaimName(podClaimNameBytes(0xED, 0xA0, 0x80))); // UTF-8 surrogate
            assertEquals("a\uFFFD\uFFFDb", podClaimName(podClaimNameBytes(0xC0, 0xAF)));          // overlong '/'
            assertEquals("a\uFFFD\uFFFD\uFFFD\uFFFDb", podClaimName(podClaimNameBytes(0xF4, 0x90, 0x80, 0x80))); // > U+10FFFF
            assertEquals("a\uFFFD\uFFFDb", podClaimName(podClaimNameBytes(0x80, 0xBF)));          // stray continuations
            assertEquals("a\u20AC\uFFFDb", podClaimName(podClaimNameBytes(0xE2, 0x82, 0xAC, 0xAC)));
            assertEquals("a\uD83D\uDE00b", podClaimName(podClaimNameBytes(0xF0, 0x9F, 0x98, 0x80)));
        }

        @Test
        void invalidUtf8InAnAttributeKeyToo() throws Exception {
            byte[] stream = concat(ALPHA + ",\"requests\":[{\"name\":\"r\",\"devices\":[{\"attributes\":{\"k",
                    new byte[] {(byte) 0xFE}, "\":{\"int\":1}}}]}]}");
            DeviceMetadata dm = MetadataStreamDecoder.decode(stream, "x").object();
            assertEquals(List.of("k\uFFFD"), List.copyOf(dm.requests().get(0).devices().get(0).attributes().keySet()));
        }

        @Test
        void invalidUtf8OutsideStringsIsASyntaxError() {
            assertFails(concat(UNKNOWN, new byte[] {(byte) 0xC3}, ALPHA + "}"), MALFORMED_STREAM, "read metadata object");
            assertFails(concat(ALPHA + ",\"x\":", new byte[] {(byte) 0xFF}, "}"), MALFORMED_STREAM, "read metadata object");
        }

        @Test
        void unpairedSurrogateEscapesBecomeReplacementCharacters() throws Exception {
            // Go's unquote: an escaped surrogate that is not the high half of a valid escaped pair is U+FFFD
            assertEquals("a\uFFFDb", decode(withPodClaimName("\"a\\ud800b\"")).object().podClaimName());
            assertEquals("a\uFFFDb", decode(withPodClaimName("\"a\\uDC00b\"")).object().podClaimName());
            assertEquals("a\uFFFD\uFFFDb", decode(withPodClaimName("\"a\\udc00\\ud800b\"")).object().podClaimName());
            assertEquals("a\uFFFD\uD800\uDC00b", decode(withPodClaimName("\"a\\ud800\\ud800\\udc00b\"")).object().podClaimName());
            assertEquals("a\uD800\uDC00b", decode(withPodClaimName("\"a\\uD800\\uDC00b\"")).object().podClaimName());
            assertEquals("a\uFFFD\uD83D\uDE00", decode(withPodClaimName("\"a\\ud800\uD83D\uDE00\"")).object().podClaimName());
            assertEquals("\\ud800", decode(withPodClaimName("\"\\\\ud800\"")).object().podClaimName());
            assertEquals("\\\uFFFD", decode(withPodClaimName("\"\\\\\\ud800\"")).object().podClaimName());
            assertEquals("\uFFFD", decode(withPodClaimName("\"\\ud800\"")).object().podClaimName());
        }

        @Test
        void decodedStringsAlwaysEncodeBack() throws Exception {
            DeviceMetadata dm = decode(withPodClaimName("\"\\ud800\\udfff\\udbff\"")).object();
            byte[] encoded = GoCompatibleJson.mapper().writeValueAsBytes(dm);
            assertEquals(dm, MetadataStreamDecoder.decode(encoded, "x").object());
        }

        @Test
        void goEscapesAndUnicodeSurviveIntact() {
            assertEquals("<&>\u2028\"\\/\b\f\n\r\t\u00e9\uD83D\uDE00",
                    decode(withPodClaimName("\"\\u003c\\u0026\\u003e\\u2028\\\"\\\\\\/\\b\\f\\n\\r\\t\u00e9\uD83D\uDE00\"")).object().podClaimName());
        }

        @Test
        void longStringsAndKeys() {
            String big = "x".repeat(900_000);
            assertEquals(big, decode(withPodClaimName("\"" + big + "\"")).object().podClaimName());
            DeviceMetadata dm = decode(withAttribute("{\"string\":\"v\"}").replace("\"a\":", "\"" + big + "\":")).object();
            assertEquals(List.of(big), List.copyOf(dm.requests().get(0).devices().get(0).attributes().keySet()));
        }

        @Test
        void mapKeysEncodeInGoOrderByUtf8Bytes() throws Exception {
            DeviceMetadata dm = decode(ALPHA + ",\"requests\":[{\"name\":\"r\",\"devices\":[{\"attributes\":{"
                    + "\"\uD83D\uDE00\":{\"int\":1},\"\uFFFD\":{\"int\":2},\"b\":{\"int\":3},\"B\":{\"int\":4}}}]}]}").object();
            String encoded = GoCompatibleJson.mapper().writeValueAsString(dm);
            TestStreams.assertContainsInOrder(encoded, "\"B\"", "\"b\"", "\"\uFFFD\"", "\"\uD83D\uDE00\"");
        }
    }

    @Nested
    class Timestamps {

        private static String withCreation(String json) {
            return ALPHA + ",\"metadata\":{\"creationTimestamp\":" + json + "}}";
        }

        private static String creation(String value) {
            return decode(withCreation("\"" + value + "\"")).object().metadata().creationTimestamp();
        }

        @Test
        void offsetsAreNormalisedToUtcWithSecondPrecision() {
            assertEquals("2008-01-01T01:01:01Z", creation("2008-01-01T01:01:01Z"));
            assertEquals("2007-12-31T23:31:01Z", creation("2008-01-01T03:01:01+03:30"));
            assertEquals("2008-01-01T06:01:01Z", creation("2008-01-01T01:01:01-05:00"));
            assertEquals("2008-01-01T01:01:01Z", creation("2008-01-01T01:01:01.999999999Z"));
            assertEquals("2008-01-01T01:01:01Z", creation("2008-01-01T01:01:01.12345678901234Z"));
            assertEquals("0000-01-01T00:00:00Z", creation("0000-01-01T00:00:00Z"));
            assertEquals("2024-02-29T00:00:00Z", creation("2024-02-29T00:00:00Z"));
            // what Go's layout parser also accepts: a one-digit hour, a comma fraction, offsets up to 24:60
            assertEquals("2008-01-01T01:01:01Z", creation("2008-01-01T1:01:01,5Z"));
            assertEquals("2007-12-31T00:00:00Z", creation("2008-01-01T00:00:00+24:00"));
            assertEquals("2008-01-01T20:00:00Z", creation("2008-01-01T00:00:00-19:60"));
            assertEquals("-0001-12-31T23:00:00Z", creation("0000-01-01T00:00:00+01:00"));
            assertEquals("10000-01-01T00:59:59Z", creation("9999-12-31T23:59:59-01:00"));
        }

        @ParameterizedTest
        @ValueSource(strings = {"2008-01-01", "2008-01-01T01:01Z", "2008-01-01 01:01:01Z", "2008-01-01T01:01:01",
            "2008-01-01t01:01:01z", "2008-01-01T01:01:01+0100", "2008-01-01T01:01:01+01:00:00", "2008-13-01T01:01:01Z",
            "2023-02-29T00:00:00Z", "2008-01-01T24:00:00Z", "2008-01-01T23:59:60Z", "12008-01-01T01:01:01Z",
            "+2008-01-01T01:01:01Z", "2008-01-01T01:01:01.Z", "2008-01-01T001:01:01Z", "2008-01-01T01:01:01+25:00",
            "2008-01-01T01:01:01+01:61", "2008-01-01T01:01:01*01:00", "2008-1-01T01:01:01Z", "2008-01-01T01:01:1Z", "2008-01-01T01:01:01ZZ", "", "yesterday"})
        void malformedTimestampsAreInvalidObjects(String value) {
            assertFails(withCreation("\"" + value + "\""), INVALID_OBJECT, "decode " + V1ALPHA1, "metadata.creationTimestamp");
        }

        @Test
        void nonStringTimestampIsAnInvalidObjectAndNullIsAbsent() {
            assertFails(withCreation("1199149261"), INVALID_OBJECT, "metadata.creationTimestamp");
            assertFails(withCreation("{}"), INVALID_OBJECT, "metadata.creationTimestamp");
            assertNull(decode(withCreation("null")).object().metadata().creationTimestamp());
        }

        @Test
        void otherTimeFieldsFollowTheSameRules() {
            assertEquals("2009-01-01T00:00:00Z", decode(ALPHA + ",\"metadata\":{\"deletionTimestamp\":\"2009-01-01T01:00:00+01:00\"}}")
                    .object().metadata().deletionTimestamp());
            assertFails(ALPHA + ",\"metadata\":{\"managedFields\":[{\"time\":\"noon\"}]}}", INVALID_OBJECT,
                    "metadata.managedFields[0].time");
        }
    }
}
