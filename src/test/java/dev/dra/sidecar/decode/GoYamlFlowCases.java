package dev.dra.sidecar.decode;

import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Top-level arrays of random metadata objects (so that go-yaml reads them in flow context) edited at each of
 * go-yaml v2's flow rules ({@link dev.dra.sidecar.decode.goyaml.GoYamlScanner}), on both sides of each: a break between a key and its
 * {@code :} or inside the key, keys around the 1024-character limit (letters, two-byte letters, escapes,
 * spaces before the {@code :}), a break in a string before {@code ---} or {@code ...} and a blank or not,
 * whitespace JSON allows anywhere else (which go-yaml reads alike), an escape go-yaml refuses before or after
 * the edit, and all of it past the reader's 512-byte chunks; and a U+FEFF where the reader refills, which makes
 * go-yaml skip characters at column 0 between tokens ({@link #bomHead}).
 */
final class GoYamlFlowCases {

    private static final List<String> BREAKS = List.of("\n", "\r", "\r\n", "\n\n");
    private static final List<String> STRING_BREAKS = List.of("\u0085", "\u2028", "\u2029");
    private static final List<String> BLANKS = List.of(" ", "\t", "\n", "\r\n", " \t");
    private static final List<String> BOM_TAILS = List.of("", "", "a", "\u00e9", "\u4e2d", "\ud83d\ude00", " ",
            "\ufeff", "\ufffd");
    private static final List<String> SMALL_VALUES = List.of("-5", "12", "0.5", "true", "false", "null", "\"s\"",
            "\"#c\"", "\"*a\"", "\"a, b\"", "[1,\"x\"]", "{}", "{\"k\":1}", "[{\"a\":[]}]");
    private static final List<String> LETTERS = List.of("a", "\u00e9", "\\u0041", "\u4e2d", "\ud83d\ude00");

    private final RandomMetadata random;

    GoYamlFlowCases(RandomMetadata random) {
        this.random = random;
    }

    /** One stream: the edited array, sometimes after an object of an unknown version. */
    byte[] next() throws java.io.IOException {
        String object = GoCompatibleJson.mapper().writeValueAsString(random.object());
        if (random.chance(80)) { // mostly without what go-yaml's reader refuses, which would hide the rule
            object = object.replaceAll("[\u007f-\u0084\u0086-\u009f\ufffe\uffff]", "x");
        }
        if (random.chance(25)) {
            return withUnknownBefore(bomHead(object));
        }
        String value = switch (random.random.nextInt(5)) {
            case 0 -> breakAtKey(object);
            case 1 -> longKey(object);
            case 2 -> documentIndicator(object);
            case 3 -> whitespaceElsewhere(object);
            default -> longKey(breakAtKey(object));
        };
        if (random.chance(20)) {
            value = value.replaceFirst("\"", random.chance(50) ? "\"\\\\/" : "\"\\\\ud800");
        }
        String prefix = random.chance(30) ? "\"x\",".repeat(random.random.nextInt(260)) : "";
        return withUnknownBefore("[" + prefix + value + "]");
    }

    private byte[] withUnknownBefore(String array) {
        String stream = array;
        if (random.chance(20)) {
            stream = "{\"apiVersion\":\"" + random.pick(RandomMetadata.UNKNOWN) + "\",\"kind\":\"X\"}\n" + stream;
        }
        return stream.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * An array whose first string ends with U+FEFF where go-yaml's reader refills, up to 8 bytes before one of its
     * first two 512-byte chunks ends (so that the BOM becomes the buffer's head), then the object and small values
     * with line breaks before and after their tokens: while the head is that BOM, go-yaml skips every character
     * at column 0 between tokens (a break, a quote, a bracket, a comma, a colon, a digit, a sign, a literal).
     */
    private String bomHead(String object) {
        String prefix = random.chance(50) ? "" : "\"x\"," + random.pick(BREAKS);
        int before = ("[" + prefix + "\"").length() + (random.chance(20) ? 1 : 0);
        int filler = 512 * (1 + random.random.nextInt(2)) - random.random.nextInt(9) - 3 - before;
        StringBuilder head = new StringBuilder("[" + prefix + "\"");
        while (head.length() < before + filler) {
            head.append(random.random.nextInt(6) == 0 ? ' ' : (char) ('a' + random.random.nextInt(8)));
        }
        head.append(before > ("[" + prefix + "\"").length() ? " " : "").append('\ufeff')
                .append(random.pick(BOM_TAILS)).append('"');
        List<String> values = new java.util.ArrayList<>(List.of(breaksAround(object)));
        for (int n = random.random.nextInt(5); n > 0; n--) {
            values.add(breaksAround(random.pick(SMALL_VALUES)));
        }
        java.util.Collections.shuffle(values, random.random);
        StringBuilder array = head;
        for (String value : values) {
            array.append(',').append(random.chance(70) ? random.pick(BREAKS) : "").append(value);
        }
        return array.append(random.chance(30) ? random.pick(BREAKS) : "").append(']').toString();
    }

    /** Line breaks (and sometimes a blank after them) before and after random structural characters. */
    private String breaksAround(String json) {
        String breaks = around(json, c -> random.chance(10) ? random.pick(BREAKS) : "",
                c -> random.chance(25) ? random.pick(BREAKS) + (random.chance(20) ? random.pick(List.of(" ", "\t")) : "") : "");
        return breaks.strip();
    }

    /** A break before a random key's {@code :}, or inside the key, or after the {@code :} (which YAML reads). */
    private String breakAtKey(String json) {
        int colon = randomKeyColon(json);
        if (colon < 0) {
            return json;
        }
        return switch (random.random.nextInt(4)) {
            case 0 -> json.substring(0, colon) + random.pick(BREAKS) + random.pick(List.of("", " ", "\t")) + json.substring(colon);
            case 1 -> json.substring(0, colon + 1) + random.pick(BREAKS) + json.substring(colon + 1);
            case 2 -> json.substring(0, colon - 1) + random.pick(STRING_BREAKS) + json.substring(colon - 1);
            default -> json.substring(0, colon) + " " + json.substring(colon);
        };
    }

    /** A member whose key reaches from its quote to its {@code :} 1015 to 1030 characters (as written). */
    private String longKey(String json) {
        String letter = random.pick(LETTERS);
        int width = letter.startsWith("\\") ? 6 : 1;
        int target = 1015 + random.random.nextInt(16);
        String spaces = random.chance(30) ? " ".repeat(random.random.nextInt(4)) : "";
        int letters = Math.max(0, (target - 2 - spaces.length()) / width);
        String key = "\"" + letter.repeat(letters) + "\"" + spaces;
        int open = randomObjectStart(json);
        return open < 0 ? json : json.substring(0, open + 1) + key + ":" + random.pick(List.of("1", "\"v\"", "{}", "[]"))
                + (json.charAt(open + 1) == '}' ? "" : ",") + json.substring(open + 1);
    }

    /** A break in a random string, then {@code ---} or {@code ...} and a blank, or another character. */
    private String documentIndicator(String json) {
        int quote = randomQuote(json);
        if (quote < 0) {
            return json;
        }
        String marker = random.pick(List.of("---", "...", "--", "-- -"));
        String after = random.pick(List.of(" ", "\u0085", "\u2028", "\u2029", "x", "", "\\n"));
        String lead = random.pick(List.of("", " ", "\u2028"));
        return json.substring(0, quote + 1) + random.pick(STRING_BREAKS) + lead + marker + after + json.substring(quote + 1);
    }

    /** JSON whitespace after a random structural character, but not before a {@code :}. */
    private String whitespaceElsewhere(String json) {
        return around(json, c -> "", c -> "{[,:".indexOf(c) >= 0 && random.chance(15) ? random.pick(BLANKS) : "");
    }

    /**
     * {@code json} with what {@code before} and {@code after} give for each structural character (outside
     * strings) inserted before and after it.
     */
    private static String around(String json, java.util.function.IntFunction<String> before,
            java.util.function.IntFunction<String> after) {
        StringBuilder out = new StringBuilder();
        boolean inString = false;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            boolean structural = !inString && "{}[],:".indexOf(c) >= 0;
            out.append(structural ? before.apply(c) : "").append(c);
            if (c == '\\' && inString) {
                out.append(json.charAt(++i));
                continue;
            }
            if (c == '"') {
                inString = !inString;
            }
            out.append(structural ? after.apply(c) : "");
        }
        return out.toString();
    }

    /** The offset of a random key's {@code :} outside strings, or -1. */
    private int randomKeyColon(String json) {
        return randomOutside(json, ':');
    }

    private int randomObjectStart(String json) {
        return randomOutside(json, '{');
    }

    private int randomQuote(String json) {
        return randomOutside(json, '"');
    }

    /** A random occurrence of {@code wanted} that is structural (a string's opening quote for {@code "}). */
    private int randomOutside(String json, char wanted) {
        java.util.List<Integer> found = new java.util.ArrayList<>();
        boolean inString = false;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (inString && c == '\\') {
                i++;
            } else if (c == '"') {
                if (!inString && wanted == '"') {
                    found.add(i);
                }
                inString = !inString;
            } else if (!inString && c == wanted) {
                found.add(i);
            }
        }
        return found.isEmpty() ? -1 : found.get(random.random.nextInt(found.size()));
    }
}
