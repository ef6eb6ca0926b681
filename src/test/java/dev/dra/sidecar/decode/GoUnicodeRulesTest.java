package dev.dra.sidecar.decode;

import static dev.dra.sidecar.decode.FailureCode.INVALID_OBJECT;
import static dev.dra.sidecar.decode.FailureCode.NO_COMPATIBLE_VERSION;
import static dev.dra.sidecar.decode.TestStreams.V1BETA1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.decode.gojson.GoUnicode;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Characters as the Go reader (v0.37.2, Go 1.26, Unicode 15.0) sees them, whatever the JDK's Unicode version:
 * key folding in the apiVersion/kind peek, caseless driver names, {@code %q}, and cuts that never split a
 * surrogate pair. Every expected text is the oracle's answer for the same stream.
 */
class GoUnicodeRulesTest {

    @Test
    void thePeekFoldsKeysAsEncodingJsonDoes() {
        // the Kelvin sign folds with k and the long s with s: Go finds kind and apiVersion
        assertEquals(V1BETA1, TestStreams.decode("{\"apiVersion\":\"" + V1BETA1 + "\",\"\u212Aind\":\"DeviceMetadata\"}")
                .sourceVersion());
        assertEquals(V1BETA1, TestStreams.decode("{\"apiVer\u017Fion\":\"" + V1BETA1 + "\",\"kind\":\"DeviceMetadata\"}")
                .sourceVersion());
        // the dotless and the dotted I fold with nothing: Go finds no apiVersion (the JDK's equalsIgnoreCase would)
        for (String i : List.of("\u0131", "\u0130")) {
            String object = "{\"ap" + i + "Version\":\"" + V1BETA1 + "\",\"kind\":\"DeviceMetadata\"}";
            assertMessage(object, INVALID_OBJECT, "decode metadata object: Object 'apiVersion' is missing in '" + object + "'");
        }
    }

    @Test
    void aCaselessDriverNameTakesWhatGosCaseFoldingTakes() {
        assertEquals(List.of(), DnsNames.subdomainProblems("\u212Aube.io", true));
        assertEquals(List.of(), DnsNames.subdomainProblems("gpu.exampl\u017F.com", true));
        assertEquals(1, DnsNames.subdomainProblems("\u0131stio.io", true).size());
        assertEquals(1, DnsNames.subdomainProblems("\u0130stio.io", true).size());
        // a lower-case subdomain (pool segments) and a label take ASCII only
        assertEquals(1, DnsNames.subdomainProblems("\u212Aube.io", false).size());
        assertEquals(1, DnsNames.labelProblems("\u017F").size());
    }

    @Test
    void theNameScanIsThePublishedFormat() {
        java.util.Random random = new java.util.Random(25);
        String alphabet = "aZ0-.\u212A\u017F\u0131";
        java.util.regex.Pattern label = java.util.regex.Pattern.compile(DnsNames.LABEL_REGEX);
        java.util.regex.Pattern subdomain = java.util.regex.Pattern.compile(DnsNames.SUBDOMAIN_REGEX);
        java.util.regex.Pattern caseless = java.util.regex.Pattern.compile(DnsNames.SUBDOMAIN_CASELESS_REGEX);
        for (int n = 0; n < 20_000; n++) {
            StringBuilder s = new StringBuilder();
            for (int k = random.nextInt(7); k > 0; k--) {
                s.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String name = s.toString();
            assertEquals(label.matcher(name).matches(), DnsNames.isLabel(name), name);
            assertEquals(subdomain.matcher(name).matches(), DnsNames.isSubdomain(name), name);
            assertEquals(caseless.matcher(name).matches(), DnsNames.isSubdomainInAnyCase(name), name);
            // Go's (?i) takes exactly the ASCII caseless format with the Kelvin sign and the long s as letters
            assertEquals(caseless.matcher(name.replace('\u212A', 'k').replace('\u017F', 's')).matches(),
                    DnsNames.subdomainProblems(name, true).isEmpty(), name);
        }
    }

    @Test
    void percentQQuotesByGosTableNotTheJdks() {
        // U+1F6DC is Unicode 15.0 (printable to Go, unassigned to JDK 17); U+1FAE9 is 16.0 (the reverse for JDK 25)
        assertMessage("{\"kind\":\"\uD83D\uDEDC\uD83E\uDEE9\",\"apiVersion\":\"" + V1BETA1 + "\"}", INVALID_OBJECT,
                "decode " + V1BETA1 + ": no kind \"\uD83D\uDEDC\\U0001fae9\" is registered for version \"" + V1BETA1
                        + "\" in scheme \"pkg/runtime/scheme.go:111\"");
        assertTrue(GoUnicode.isPrint(' '));
        assertFalse(GoUnicode.isPrint(0xA0));
        assertFalse(GoUnicode.isPrint(0xAD));
    }

    @Test
    void aCutNeverSplitsASurrogatePair() {
        for (int pad = 395; pad < 405; pad++) {
            String kind = "x".repeat(pad) + "\uD83D\uDE00".repeat(60);
            String message = TestStreams.failure(TestStreams.utf8("{\"kind\":\"" + kind + "\",\"apiVersion\":\"" + V1BETA1
                    + "\"}")).getMessage();
            assertTrue(message.endsWith("..."), message);
            String kept = message.substring(0, message.length() - 3);
            assertFalse(Character.isHighSurrogate(kept.charAt(kept.length() - 1)), message);
            assertTrue(("test.json: decode " + V1BETA1 + ": no kind \"" + kind + "\"").startsWith(kept), message);
        }
    }

    @Test
    void aLongListOfUnknownVersionsIsCutLikeEveryQuote() {
        String stream = IntStream.range(0, 200).mapToObj(i -> "{\"apiVersion\":\"g/v" + i + "\",\"kind\":\"K\"}")
                .collect(Collectors.joining());
        String go = "no compatible metadata version found in stream (unknown versions: "
                + IntStream.range(0, 200).mapToObj(i -> "g/v" + i).collect(Collectors.joining(", ")) + ")";
        MetadataDecodeException e = TestStreams.failure(TestStreams.utf8(stream));
        assertEquals(NO_COMPATIBLE_VERSION, e.code());
        assertTrue(e.getMessage().endsWith("..."), e.getMessage());
        String kept = e.getMessage().substring(0, e.getMessage().length() - 3);
        assertTrue(("test.json: " + go).startsWith(kept), e.getMessage());
        // a short list is Go's text itself
        assertMessage("{\"apiVersion\":\"g/v1\",\"kind\":\"K\"}", NO_COMPATIBLE_VERSION,
                "no compatible metadata version found in stream (unknown versions: g/v1)");
    }

    private static void assertMessage(String stream, FailureCode code, String goError) {
        MetadataDecodeException e = TestStreams.failure(TestStreams.utf8(stream));
        assertEquals(code, e.code(), e::getMessage);
        assertEquals("test.json: " + goError, e.getMessage());
    }
}
