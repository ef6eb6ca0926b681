package dev.dra.sidecar.decode;

import static dev.dra.sidecar.decode.FailureCode.INVALID_OBJECT;
import static dev.dra.sidecar.decode.FailureCode.MALFORMED_STREAM;
import static dev.dra.sidecar.decode.FailureCode.NO_COMPATIBLE_VERSION;
import static dev.dra.sidecar.decode.GoReaderCases.*;
import static dev.dra.sidecar.decode.TestStreams.ALPHA;
import static dev.dra.sidecar.decode.TestStreams.UNKNOWN;
import static dev.dra.sidecar.decode.TestStreams.V1ALPHA1;
import static dev.dra.sidecar.decode.TestStreams.V1BETA1;
import static dev.dra.sidecar.decode.TestStreams.bytes;
import static dev.dra.sidecar.decode.TestStreams.concat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.decode.GoReaderCases.Case;
import dev.dra.sidecar.model.DeviceAttribute;
import dev.dra.sidecar.model.ManagedFieldsEntry;
import dev.dra.sidecar.model.ObjectMeta;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * How Go's reader reads text, where a naive JSON reader disagrees: strings decode invalid UTF-8 and unpaired
 * surrogate escapes to U+FFFD, timestamps follow Go's RFC 3339 parser and its error wording, and {@code fieldsV1}
 * keeps its tokens as written. Named cases of the {@link GoReaderCases} table, grouped by the Go rule they pin down.
 */
class DecoderTextRulesTest {

    @TestFactory
    Stream<DynamicNode> goReaderRules() {
        return GoReaderCases.tests(group("text", text()), group("timestamps", timestamps()),
                group("fieldsV1 as Go writes it back", fieldsV1()));
    }

    static List<Case> text() {
        List<Case> cases = new ArrayList<>();
        // Go: utf8.DecodeRune yields (RuneError, 1) for every byte that does not start a valid sequence
        Object[][] invalidUtf8 = {
            {"a lone 0xFF", new int[] {0xFF}, "a\uFFFDb"},
            {"a truncated 3-byte sequence", new int[] {0xE2, 0x82}, "a\uFFFD\uFFFDb"},
            {"a UTF-8 encoded surrogate", new int[] {0xED, 0xA0, 0x80}, "a\uFFFD\uFFFD\uFFFDb"},
            {"an overlong '/'", new int[] {0xC0, 0xAF}, "a\uFFFD\uFFFDb"},
            {"beyond U+10FFFF", new int[] {0xF4, 0x90, 0x80, 0x80}, "a\uFFFD\uFFFD\uFFFD\uFFFDb"},
            {"stray continuation bytes", new int[] {0x80, 0xBF}, "a\uFFFD\uFFFDb"},
            {"a valid sequence then a stray byte", new int[] {0xE2, 0x82, 0xAC, 0xAC}, "a\u20AC\uFFFDb"},
            {"a valid 4-byte sequence", new int[] {0xF0, 0x9F, 0x98, 0x80}, "a\uD83D\uDE00b"},
        };
        for (Object[] row : invalidUtf8) {
            cases.add(decodes("invalid UTF-8 in a string is one U+FFFD per byte: " + row[0],
                    concat(ALPHA + ",\"podClaimName\":\"a", raw((int[]) row[1]), "b\"}"),
                    d -> assertEquals(row[2], d.object().podClaimName())));
        }
        cases.add(decodes("invalid UTF-8 in an attribute key too",
                concat(ALPHA + ",\"requests\":[{\"name\":\"r\",\"devices\":[{\"attributes\":{\"k", raw(new int[] {0xFE}),
                        "\":{\"int\":1}}}]}]}"),
                d -> assertEquals(List.of("k\uFFFD"), List.copyOf(device(d).attributes().keySet()))));
        cases.add(fails("invalid UTF-8 between objects is a syntax error", concat(UNKNOWN, raw(new int[] {0xC3}), ALPHA + "}"),
                MALFORMED_STREAM, "read metadata object"));
        cases.add(fails("invalid UTF-8 outside a string is a syntax error", concat(ALPHA + ",\"x\":", raw(new int[] {0xFF}), "}"),
                MALFORMED_STREAM, "read metadata object"));
        // Go's unquote: an escaped surrogate that is not the high half of a valid escaped pair is U+FFFD
        String[][] surrogates = {
            {"\\ud800", "\uFFFD"}, {"a\\ud800b", "a\uFFFDb"}, {"a\\uDC00b", "a\uFFFDb"},
            {"a\\udc00\\ud800b", "a\uFFFD\uFFFDb"}, {"a\\ud800\\ud800\\udc00b", "a\uFFFD\uD800\uDC00b"},
            {"a\\uD800\\uDC00b", "a\uD800\uDC00b"}, {"a\\ud800\uD83D\uDE00", "a\uFFFD\uD83D\uDE00"},
            {"\\\\ud800", "\\ud800"}, {"\\\\\\ud800", "\\\uFFFD"},
        };
        for (String[] row : surrogates) {
            cases.add(decodes("an unpaired surrogate escape is U+FFFD: " + row[0], withPodClaimName("\"" + row[0] + "\""),
                    d -> assertEquals(row[1], d.object().podClaimName())));
        }
        cases.add(decodes("decoded strings always encode back", withPodClaimName("\"\\ud800\\udfff\\udbff\""),
                d -> assertEquals(d.object(), decode(bytes(encode(d.object()))).object())));
        cases.add(decodes("Go's escapes and Unicode survive intact",
                withPodClaimName("\"\\u003c\\u0026\\u003e\\u2028\\\"\\\\\\/\\b\\f\\n\\r\\t\u00e9\uD83D\uDE00\""),
                d -> assertEquals("<&>\u2028\"\\/\b\f\n\r\t\u00e9\uD83D\uDE00", d.object().podClaimName())));
        String big = "x".repeat(900_000);
        cases.add(decodes("a string of 900,000 characters", withPodClaimName("\"" + big + "\""),
                d -> assertEquals(big, d.object().podClaimName())));
        cases.add(decodes("a key of 900,000 characters", withAttribute("{\"string\":\"v\"}").replace("\"a\":", "\"" + big + "\":"),
                d -> assertEquals(List.of(big), List.copyOf(device(d).attributes().keySet()))));
        cases.add(decodes("map keys encode in Go's order, by UTF-8 bytes", ALPHA + ",\"requests\":[{\"name\":\"r\",\"devices\":"
                + "[{\"attributes\":{\"\uD83D\uDE00\":{\"int\":1},\"\uFFFD\":{\"int\":2},\"b\":{\"int\":3},\"B\":{\"int\":4}}}]}]}",
                d -> TestStreams.assertContainsInOrder(encode(d.object()), "\"B\"", "\"b\"", "\"\uFFFD\"", "\"\uD83D\uDE00\"")));
        cases.add(new Case("the detail lists at most a few hundred characters of versions", bytes(UNKNOWN.repeat(20_000)), s -> {
            MetadataDecodeException many = TestStreams.assertFails(s, NO_COMPATIBLE_VERSION,
                    "(unknown versions: metadata.resource.k8s.io/v1000, metadata.resource.k8s.io/v1000");
            assertTrue(many.getMessage().endsWith("..."), many.getMessage()); // cut as every quote is cut: Go's prefix
            assertTrue(many.getMessage().length() < 1_000, many.getMessage());
        }));
        String cut = "v".repeat(600);
        cases.add(new Case("the text after the path is cut at the 500 characters docs/go-oracle.md states", bytes("{\"kind\":\""
                + cut + "\",\"apiVersion\":\"" + V1BETA1 + "\"}"), s -> {
                    String message = TestStreams.failure(s).getMessage();
                    String text = message.substring(message.indexOf(": ") + 2);
                    assertTrue(text.length() == 503 && text.endsWith("v...") && text.startsWith("decode "), message);
                    assertTrue(decodingRules().replaceAll("\\s+", " ").contains("is cut at 500 characters"), "docs/go-oracle.md states the cut");
                }));
        String huge = "v".repeat(100_000);
        for (String stream : List.of("{\"kind\":\"K\",\"apiVersion\":\"a/b/" + huge + "\"}",
                "{\"kind\":\"" + huge + "\",\"apiVersion\":\"" + V1BETA1 + "\"}", withGeneration("0." + "1".repeat(100_000)))) {
            cases.add(new Case("a detail quoting a huge value stays short: " + stream.substring(0, 40), bytes(stream),
                    s -> assertTrue(TestStreams.failure(s).getMessage().length() < 1_000)));
        }
        return cases;
    }

    static List<Case> timestamps() {
        List<Case> cases = new ArrayList<>();
        String[][] accepted = {
            {"2008-01-01T01:01:01Z", "2008-01-01T01:01:01Z"},
            {"2008-01-01T03:01:01+03:30", "2007-12-31T23:31:01Z"},
            {"2008-01-01T01:01:01-05:00", "2008-01-01T06:01:01Z"},
            {"2008-01-01T01:01:01.999999999Z", "2008-01-01T01:01:01Z"},
            {"2008-01-01T01:01:01.12345678901234Z", "2008-01-01T01:01:01Z"},
            {"0000-01-01T00:00:00Z", "0000-01-01T00:00:00Z"},
            {"2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"},
            // what Go's layout parser also accepts: a one-digit hour, a comma fraction, offsets up to 24:60
            {"2008-01-01T1:01:01,5Z", "2008-01-01T01:01:01Z"},
            {"2008-01-01T00:00:00+24:00", "2007-12-31T00:00:00Z"},
            {"2008-01-01T00:00:00-19:60", "2008-01-01T20:00:00Z"},
            {"0000-01-01T00:00:00+01:00", "-0001-12-31T23:00:00Z"},
            {"9999-12-31T23:59:59-01:00", "10000-01-01T00:59:59Z"},
        };
        for (String[] row : accepted) {
            cases.add(decodes("a timestamp is served in UTC, whole seconds: " + row[0], withCreation("\"" + row[0] + "\""),
                    d -> assertEquals(row[1], d.object().metadata().creationTimestamp())));
        }
        // Go's time.Parse(time.RFC3339, s) error, word for word
        String[][] refused = {
            {"2008-01-01", ": cannot parse \"\" as \"T\""},
            {"2008-01-01T01:01Z", ": cannot parse \"Z\" as \":\""},
            {"2008-01-01 01:01:01Z", ": cannot parse \" 01:01:01Z\" as \"T\""},
            {"2008-01-01T01:01:01", ": cannot parse \"\" as \"Z07:00\""},
            {"2008-01-01t01:01:01z", ": cannot parse \"t01:01:01z\" as \"T\""},
            {"2008-01-01T01:01:01+0100", ": cannot parse \"+0100\" as \"Z07:00\""},
            {"2008-01-01T01:01:01+01:00:00", ": extra text: \":00\""},
            {"2008-13-01T01:01:01Z", ": month out of range"},
            {"2023-02-29T00:00:00Z", ": day out of range"},
            {"2008-01-01T24:00:00Z", ": hour out of range"},
            {"2008-01-01T23:59:60Z", ": second out of range"},
            {"12008-01-01T01:01:01Z", ": cannot parse \"8-01-01T01:01:01Z\" as \"-\""},
            {"+2008-01-01T01:01:01Z", ": cannot parse \"+2008-01-01T01:01:01Z\" as \"2006\""},
            {"2008-01-01T01:01:01.Z", ": cannot parse \".Z\" as \"Z07:00\""},
            {"2008-01-01T001:01:01Z", ": cannot parse \"1:01:01Z\" as \":\""},
            {"2008-01-01T01:01:01+25:00", ": time zone offset hour out of range"},
            {"2008-01-01T01:01:01+01:61", ": time zone offset minute out of range"},
            {"2008-01-01T01:01:01*01:00", ": cannot parse \"*01:00\" as \"Z07:00\""},
            {"2008-1-01T01:01:01Z", ": cannot parse \"1-01T01:01:01Z\" as \"01\""},
            {"2008-01-01T01:01:1Z", ": cannot parse \"1Z\" as \"05\""},
            {"2008-01-01T01:01:01ZZ", ": extra text: \"Z\""},
            {"", ": cannot parse \"\" as \"2006\""},
            {"yesterday", ": cannot parse \"yesterday\" as \"2006\""},
            {"2008-01-01T01:01:01Z\u00e9", ": extra text: \"\\xc3\\xa9\""},
        };
        for (String[] row : refused) {
            boolean asLayout = row[1].startsWith(": cannot parse");
            String expected = "test.json: decode " + V1ALPHA1 + ": parsing time " + goQuote(row[0])
                    + (asLayout ? " as \"2006-01-02T15:04:05Z07:00\"" : "") + row[1];
            cases.add(new Case("a malformed timestamp fails with Go's time.Parse error: " + visible(row[0]),
                    bytes(withCreation("\"" + row[0] + "\"")), s -> assertEquals(expected, TestStreams.failure(s).getMessage())));
        }
        cases.add(fails("a timestamp that is not a string is a type error naming string", withCreation("1199149261"),
                INVALID_OBJECT, "json: cannot unmarshal number into Go struct field "
                        + "ObjectMeta.metadata.creationTimestamp of type string"));
        cases.add(fails("an object timestamp", withCreation("{}"), INVALID_OBJECT,
                "json: cannot unmarshal object into Go struct field ObjectMeta.metadata.creationTimestamp of type string"));
        // Go saves a type error and decodes on; a timestamp's own decoder stops it at once, and wins
        cases.add(fails("a malformed timestamp after a type error is the error Go reports",
                withAttribute("{\"int\":\"x\"}").replaceFirst("}$", ",\"metadata\":{\"creationTimestamp\":\"x\"}}"),
                INVALID_OBJECT, "decode " + V1ALPHA1 + ": parsing time \"x\" as \"2006-01-02T15:04:05Z07:00\""));
        cases.add(fails("a timestamp of the wrong type after a type error too",
                withAttribute("{\"int\":\"x\"}").replaceFirst("}$", ",\"metadata\":{\"managedFields\":[{\"time\":1}]}}"),
                INVALID_OBJECT, "json: cannot unmarshal number into Go struct field "
                        + "ManagedFieldsEntry.metadata.managedFields.time of type string"));
        cases.add(fails("a timestamp inside a value Go skips for its type is not reached",
                withAttribute("{\"int\":\"x\"}").replaceFirst("}$", ",\"metadata\":{\"managedFields\":{\"time\":\"x\"}}}"),
                INVALID_OBJECT, "json: cannot unmarshal string into Go struct field "
                        + "DeviceAttribute.requests.devices.attributes.int of type int64"));
        cases.add(fails("a good timestamp after a type error leaves the type error",
                withAttribute("{\"int\":\"x\"}").replaceFirst("}$", ",\"metadata\":{\"creationTimestamp\":\"2008-01-01T01:01:01Z\"}}"),
                INVALID_OBJECT, "json: cannot unmarshal string into Go struct field "
                        + "DeviceAttribute.requests.devices.attributes.int of type int64"));
        cases.add(decodes("deletionTimestamp follows the same rules",
                ALPHA + ",\"metadata\":{\"deletionTimestamp\":\"2009-01-01T01:00:00+01:00\"}}",
                d -> assertEquals("2009-01-01T00:00:00Z", d.object().metadata().deletionTimestamp())));
        cases.add(fails("managedFields time follows the same rules", ALPHA + ",\"metadata\":{\"managedFields\":[{\"time\":\"noon\"}]}}",
                INVALID_OBJECT, "decode " + V1ALPHA1 + ": parsing time \"noon\" as \"2006-01-02T15:04:05Z07:00\": "
                        + "cannot parse \"noon\" as \"2006\""));
        return cases;
    }

    /** Go keeps fieldsV1 as raw bytes and writes them back through json.Compact. */
    static List<Case> fieldsV1() {
        return List.of(
                fieldsV1("numbers stay as written", "{\"n\": [1.0, 1.50, -0.0, 1e400, 1E+2, 0.1000000000000000000000001]}",
                        "{\"n\":[1.0,1.50,-0.0,1e400,1E+2,0.1000000000000000000000001]}"),
                fieldsV1("string escapes stay as written", "{\"s\" : \"\\u00e9\\/\\ud800 <&> \\\"\"}",
                        "{\"s\":\"\\u00e9\\/\\ud800 <&> \\\"\"}"),
                fieldsV1("whitespace outside strings goes, inside strings stays", "{ \"f:a\" :\n\t{ \"x y\" : [ ] } }",
                        "{\"f:a\":{\"x y\":[]}}"),
                fieldsV1("a number of a million digits is kept, not parsed", "{\"n\":" + "7".repeat(1_000_000) + "}",
                        "{\"n\":" + "7".repeat(1_000_000) + "}"),
                fieldsV1("an exponent beyond any floating point type is kept", "[1e99999999999]", "[1e99999999999]"),
                fieldsV1("any JSON value: a string", "\"x\"", "\"x\""),
                fieldsV1("any JSON value: a number", "5", "5"),
                fieldsV1("any JSON value: an array", "[ true , null ]", "[true,null]"));
    }

    /** docs/go-oracle.md, where the decoding rules README summarizes are stated. */
    private static String decodingRules() {
        try {
            return Files.readString(Path.of("docs/go-oracle.md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Case fieldsV1(String name, String written, String served) {
        return decodes(name, ALPHA + ",\"metadata\":{\"managedFields\":[{\"fieldsV1\":" + written + ",\"manager\":\"m\"}]}}",
                d -> {
                    String encoded = encode(d.object().metadata().managedFields().get(0));
                    assertEquals("{\"manager\":\"m\",\"fieldsV1\":" + served + "}", encoded);
                    assertEquals(d.object(), decode(bytes(encode(d.object()))).object(), "served fieldsV1 decodes back the same");
                });
    }
}
