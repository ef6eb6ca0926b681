package dev.dra.sidecar.decode;

import static dev.dra.sidecar.decode.FailureCode.INVALID_OBJECT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * go-yaml v2's flow rules ({@link dev.dra.sidecar.decode.goyaml.GoYamlScanner}) for a top-level value that is not an object, each case as the
 * Go reader (v0.37.2, {@code go.yaml.in/yaml/v2} v2.4.4) answered it through the oracle. In the sources, {@code ~}
 * is a line feed, {@code ^} a carriage return, {@code N}, {@code L} and {@code P} a raw NEL, LS and PS, {@code T}
 * a tab, {@code @} a backslash, {@code K<n>} a key of n letters {@code a}, {@code E<n>} one of n letters {@code é}.
 */
class GoYamlFlowRulesTest {

    private static final String ARRAY = "couldn't get version/kind; json parse error: json: cannot unmarshal array into "
            + "Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; "
            + "Kind string \"json:\\\"kind,omitempty\\\"\" }";
    private static final String NO_KEY = "did not find expected ',' or '}'";
    private static final String BOM_HEAD = "[\"" + "a".repeat(507) + "\ufeff\"";

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "[{\"\":{\"\"~:\"\"}}]      | line 1: " + NO_KEY,
        "[{\"a\"~:1}]               | line 1: " + NO_KEY,
        "[{\"a\"^~:1}]              | line 1: " + NO_KEY,
        "[{\"a\"^:1}]               | line 1: " + NO_KEY,
        "[{\"a\":1,~\"b\"~:2}]      | line 2: " + NO_KEY,
        "[~{\"a\"~:1}]              | line 2: " + NO_KEY,
        "[~~{\"a\":1,\"b\"~:2}]     | line 3: " + NO_KEY,
        "[{\"aLb\":1}]              | line 1: " + NO_KEY,
        "[{\"aNb\":1}]              | line 1: " + NO_KEY,
        "[{\"xP\":1}]               | line 1: " + NO_KEY,
        "[{\"a\"~:\"@/\"}]          | line 1: " + NO_KEY,
        "[{\"a\"~:1,\"b\":\"L... \"}] | line 1: " + NO_KEY,
        "[{\"a\":\"@/\",\"b\"~:1}]  | found unknown escape character",
        "[{\"@/\"~:1}]              | found unknown escape character",
        "[\"aN--- b\"]              | line 2: found unexpected document indicator",
        "\"aN... b\"                | line 2: found unexpected document indicator",
        "[\"aL--- \"]               | line 2: found unexpected document indicator",
        "[\"aL...L\"]               | line 2: found unexpected document indicator",
        "[\"aLL--- b\"]             | line 3: found unexpected document indicator",
        "[\"aL---P\"]               | line 2: found unexpected document indicator",
        "[\"L---L\"]                | line 2: found unexpected document indicator",
        "[{\"aL--- \":1}]           | line 2: found unexpected document indicator",
        "[{\"K1023\":1}]            | " + NO_KEY,
        "[{\"K1022\" :1}]           | " + NO_KEY,
        "[{\"K2000\":1,\"x\":2}]    | " + NO_KEY,
        "[{\"x\":1,\"K2000\":1}]    | " + NO_KEY,
        "[{\"x\":{\"K2000\":1}}]    | " + NO_KEY,
        "[{\"x\":1}, {\"K1100\":1}] | " + NO_KEY,
        "[{\"x\":{\"a\":1},~\"K1100\":1}] | line 1: " + NO_KEY,
        "[{\"E1023\":1}]            | " + NO_KEY,
    })
    void goRefusesWhatJsonAccepts(String value, String goError) {
        MetadataDecodeException e = TestStreams.failure(TestStreams.utf8(expand(value)));
        assertEquals(INVALID_OBJECT, e.code(), e::getMessage);
        assertEquals("test.json: decode metadata object: yaml: " + goError, e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"[{\"K1020\":1}]", "[{\"K1022\":1}]", "[{\"E1022\":1}]", "[T{\"a\"T:T1}T]", "[~T1]",
        "[{\"a\":~1}]", "[~{~\"a\":1~}~]", "[{\"a\":1}~T]", "[{\"<<\":1}]", "[{\"<<\":{\"a\":1}}]", "[{\"a\":1,\"a\":2}]",
        "[\"aL --- b\"]", "[\"aL--P\"]", "[\"aN---\"]", "[{\"a\":\"xLy\"}]", "[\"aLb\",{\"b\":\"cNd\"}]"})
    void goReadsAsJsonDoes(String value) {
        MetadataDecodeException e = TestStreams.failure(TestStreams.utf8(expand(value)));
        assertEquals("test.json: decode metadata object: " + ARRAY, e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {170, 171})
    void escapesCountAsWritten(int escapes) {
        // 170 escapes of 6 characters and the quotes: 1022 characters, a key; 171: 1028, none
        MetadataDecodeException e = TestStreams.failure(TestStreams.utf8("[{\"" + "\\u0041".repeat(escapes) + "\":1}]"));
        assertEquals("test.json: decode metadata object: " + (escapes == 170 ? ARRAY : "yaml: " + NO_KEY), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"aNb\"", "[\"aNb\"]"})
    void aBreakInAStringValueChangesNoAnswer(String value) {
        String type = value.startsWith("[") ? "array" : "string";
        MetadataDecodeException e = TestStreams.failure(TestStreams.utf8(expand(value)));
        assertEquals("test.json: decode metadata object: " + ARRAY.replace("array", type), e.getMessage());
    }

    /**
     * A rule met near the end of the reader's first 512-byte chunk, a byte that is no UTF-8 in the second: Go
     * gives the reader's error once the scanner had asked for a character of the second chunk (4 characters at
     * the {@code :} and at a string's run, the 4 hex digits of an escape, the next 2 after each character).
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "[\"X498\",{\"a\"~:\"Y\"}] | line 1: " + NO_KEY,
        "[\"X499\",{\"a\"~:\"Y\"}] | line 1: " + NO_KEY,
        "[\"X500\",{\"a\"~:\"Y\"}] | invalid leading UTF-8 octet",
        "[\"X504\",{\"a\"~:\"Y\"}] | invalid leading UTF-8 octet",
        "[\"X508@/Y\"]                 | found unknown escape character",
        "[\"X509@/Y\"]                 | invalid leading UTF-8 octet",
        "[\"X505 @/Y\"]                | found unknown escape character",
        "[\"X506 @/Y\"]                | invalid leading UTF-8 octet",
        "[\"X504@ud800Y\"]             | found invalid Unicode character escape code",
        "[\"X505@ud800Y\"]             | invalid leading UTF-8 octet",
        "[\"X500L--- Y\"]              | line 2: found unexpected document indicator",
        "[\"X504L--- Y\"]              | invalid leading UTF-8 octet",
    })
    void whichOfTheReaderAndTheScannerComesFirst(String value, String goError) {
        String text = expand(value.replaceAll("X(\\d+)", "K$1").replace("Y", "yyyyyyyyyyyyyyyyyyyy#"));
        byte[] bytes = TestStreams.utf8(text);
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = bytes[i] == '#' ? (byte) 0xff : bytes[i];
        }
        MetadataDecodeException e = TestStreams.failure(bytes);
        assertEquals("test.json: decode metadata object: yaml: " + goError, e.getMessage());
    }

    /**
     * go-yaml's {@code is_bom} tests the head of its buffer, not the cursor: once the reader has refilled while the
     * cursor was on a U+FEFF (here the last character of the first 512-byte chunk, {@code %} below: {@code ["},
     * 507 letters, the BOM, {@code "}), each character at column 0 between tokens is skipped until the next
     * refill: a blank or break (that line is not counted), a sign, digit or literal's first letter, a bracket, a
     * comma, a colon, or a string's quote (its content then is a plain scalar, with YAML's comments, anchors,
     * tags and floats). Each answer is Go's; {@code ARRAY} is the answer to an array YAML reads.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "%,~ -5]                  | ARRAY",
        "%,~T-5]                  | ARRAY",
        "%,~-5]                   | ARRAY",
        "%,~12]                   | ARRAY",
        "%,~true]                 | ARRAY",
        "%,~false]                | ARRAY",
        "%,~null]                 | ARRAY",
        "%,~\"x\"]                | ARRAY",
        "%,~\"x\",{\"a\"~:1}]     | yaml: line 2: did not find expected ',' or '}'",
        "%,~{\"a\":1}]            | yaml: line 1: did not find expected ',' or ']'",
        "%,~[1]]                  | ARRAY",
        "%,~[1],2]                | ARRAY",
        "%,1~,2]                  | ARRAY",
        "%,{\"a\"~:1}]            | yaml: line 1: did not find expected ',' or '}'",
        "%,[1~]]                  | ARRAY",
        "%,{\"a\":1~}]            | ARRAY",
        "%,~~1]                   | ARRAY",
        "%,~~1,{\"a\"~:1}]        | yaml: line 2: did not find expected ',' or '}'",
        "%,~1,{\"a\"~:1}]         | yaml: line 1: did not find expected node content",
        "%,^^1,{\"a\"~:1}]        | yaml: line 2: did not find expected ',' or '}'",
        "%,^1,{\"a\"~:1}]         | yaml: line 1: did not find expected node content",
        "%,~^~1]                  | ARRAY",
        "%,~^~1,{\"a\"~:1}]       | yaml: line 2: did not find expected node content",
        "%,~\"a #b\"]             | yaml: line 2: did not find expected ',' or ']'",
        "%,~\"*a\",1]             | yaml: line 2: did not find expected alphabetic or numeric character",
        "%,~\"&a b\"]             | ARRAY",
        "%,~\"a, b\"]             | ARRAY",
        "%,~\"a: b\"]             | ARRAY",
        "%,~\"!!int x\"]          | yaml: cannot decode !!str `x\"` as a !!int",
        "%,~\".inf, 1\"]          | json: unsupported value: +Inf",
        "%,~\"-\"]                | ARRAY",
        "%,~\"? a\"]              | ARRAY",
        "%,~\"`x\"]              | yaml: line 2: found character that cannot start any token",
        "%,{\"k\":~\"v\"}]        | ARRAY",
        "%,{\"k\":~{}}]           | yaml: line 1: did not find expected ',' or ']'",
        "%,{\"k\":~[]}]           | yaml: line 1: did not find expected node content",
        "%,~\"!!binary YQ\"]       | yaml: !!binary value contains invalid base64 data",
        "%,~\"!!bool yes, !!null x\"] | yaml: cannot decode !!str `x\"` as a !!null",
        "%,~\"!!int 08, !!float 08\"] | yaml: cannot decode !!float `08` as a !!int",
        "%,~\"!!str 1, !foo 2, ! 3\"] | ARRAY",
        "%,~\"!x!y z\"]            | yaml: line 1: found undefined tag handle",
        "%,~\"<<: 1\"]             | yaml: map merge requires map or sequence of maps as the value",
        "%,~\"&a [1], *a\"]        | yaml: line 2: did not find expected alphabetic or numeric character",
        "%,~\"a: .inf, b: -.inf\"] | json: unsupported value: +Inf",
        "%~]                      | yaml: line 2: did not find expected ',' or ']'",
        "%~,1]                    | yaml: line 1: did not find expected ',' or ']'",
    })
    void aByteOrderMarkAtTheBufferHeadSkipsTheCharacterAtColumnZero(String value, String goAnswer) {
        MetadataDecodeException e = TestStreams.failure(TestStreams.utf8(expand(value.replace("%", BOM_HEAD))));
        assertEquals(INVALID_OBJECT, e.code(), e::getMessage);
        assertEquals("test.json: decode metadata object: " + (goAnswer.equals("ARRAY") ? ARRAY : goAnswer), e.getMessage());
    }

    /** The same as deep as Go nests (its decoder recurses once per level; so does the sidecar's, on a larger stack). */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "[~                   | {\"a\"~:1}  | yaml: line 9999: " + NO_KEY,
        "[                    | ~1          | ARRAY",
    })
    void aByteOrderMarkAtTheBufferHeadNineThousandLevelsDeep(String open, String inner, String goAnswer) {
        int levels = open.equals("[") ? 9999 : 9998;
        String value = BOM_HEAD + "," + expand(open).repeat(levels) + expand(inner) + "]".repeat(levels) + "]";
        MetadataDecodeException e = TestStreams.failure(TestStreams.utf8(value));
        assertEquals("test.json: decode metadata object: " + (goAnswer.equals("ARRAY") ? ARRAY : goAnswer), e.getMessage());
    }

    /**
     * Anchors and aliases a string makes once its quote is skipped, as Go's decoder limits them: an alias inside its
     * own anchor, and nine levels of nine aliases each (a "billion laughs", refused after a few thousand steps).
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "9 | yaml: document contains excessive aliasing",
        "3 | ARRAY",
        "0 | yaml: anchor 'a' value contains itself",
    })
    void aliasesAreLimitedAsGoLimitsThem(int levels, String goAnswer) {
        StringBuilder yaml = new StringBuilder(levels == 0 ? "&a [1, *a]" : "&l0 [" + "1,".repeat(levels - 1) + "1]");
        for (int i = 1; i < levels; i++) {
            yaml.append(", &l").append(i).append(" [").append(("*l" + (i - 1) + ",").repeat(levels - 1))
                    .append("*l").append(i - 1).append(']');
        }
        String value = BOM_HEAD + ",\n\"" + yaml + ", z\"]";
        MetadataDecodeException e = TestStreams.failure(TestStreams.utf8(value));
        assertEquals("test.json: decode metadata object: " + (goAnswer.equals("ARRAY") ? ARRAY : goAnswer), e.getMessage());
    }

    /** The stream CI's seed -4309046563076703778 generated (case 6906), which found the rule above. */
    @org.junit.jupiter.api.Test
    void theStreamThatFoundItGetsGoAnswer() throws java.io.IOException {
        byte[] stream = java.nio.file.Files.readAllBytes(
                java.nio.file.Path.of("src/test/resources/fixtures/oracle-corpus/f2582903d63a4c34e37adecec1ac8b8faeba1f16"));
        assertEquals("test.json: decode metadata object: yaml: line 4: " + NO_KEY, TestStreams.failure(stream).getMessage());
    }

    /** The sources' shorthand made into the bytes Go was given. */
    static String expand(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c == 'K' || c == 'E') && i + 1 < s.length() && Character.isDigit(s.charAt(i + 1))) {
                int j = i + 1;
                while (j < s.length() && Character.isDigit(s.charAt(j))) {
                    j++;
                }
                out.append((c == 'K' ? "a" : "\u00e9").repeat(Integer.parseInt(s.substring(i + 1, j))));
                i = j - 1;
                continue;
            }
            out.append(switch (c) {
                case '~' -> "\n";
                case '^' -> "\r";
                case 'N' -> "\u0085";
                case 'L' -> "\u2028";
                case 'P' -> "\u2029";
                case 'T' -> "\t";
                case '@' -> "\\";
                default -> String.valueOf(c);
            });
        }
        return out.toString();
    }
}
