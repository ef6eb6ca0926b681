package dev.dra.sidecar.decode.gojson;

import java.util.Comparator;

/**
 * Text the way Go's {@code encoding/json} sees it, so that every string we decode is the string Go decodes.
 *
 * <ul>
 *   <li>Go reads the raw bytes and, inside strings, turns every byte that does not start a valid UTF-8
 *       sequence into one U+FFFD ({@code utf8.DecodeRune} returns {@code (RuneError, 1)}). Java's decoder
 *       replaces a whole ill-formed subsequence by a single U+FFFD, so {@code ED A0 80} gives one U+FFFD in
 *       Java and three in Go: we decode by Go's rule.
 *   <li>Go's {@code unquote} turns a {@code \}{@code u} escape of a surrogate that is not the first half of a
 *       valid escaped pair into U+FFFD; Jackson would keep a lone surrogate, which no UTF-8 encoder can write.
 * </ul>
 *
 * Both rewrites only touch what can appear inside a string, and keep the text a syntax error wherever it was
 * one, so the stream's outcome is unchanged apart from the decoded strings.
 */
public final class GoText {

    private static final char REPLACEMENT = '\uFFFD';

    /**
     * Byte order of the UTF-8 encodings, which is code point order: the order in which Go's encoder writes
     * map keys. (Java's {@code String.compareTo} sorts supplementary characters before U+E000..U+FFFF.)
     */
    static final Comparator<String> CODE_POINT_ORDER = GoText::compareCodePoints;

    private GoText() {}

    /**
     * The JSON text of {@code stream} as Go's decoder sees it.
     *
     * @param raw the stream decoded as Go decodes UTF-8, escapes untouched: the text Go keeps for a raw value
     *     ({@code fieldsV1})
     * @param text the same with Go's surrogate-escape replacement: the text every other value is read from;
     *     the same array as {@code raw} when nothing was replaced, and always of the same length
     */
    public record JsonText(char[] raw, char[] text) {}

    public static JsonText jsonText(byte[] stream) {
        char[] raw = decodeUtf8(stream);
        return new JsonText(raw, replaceUnpairedSurrogateEscapes(raw));
    }

    /** Decodes UTF-8 as Go does: each byte that does not begin a valid, complete sequence becomes U+FFFD. */
    private static char[] decodeUtf8(byte[] b) {
        char[] out = new char[b.length]; // never more UTF-16 units than bytes
        int n = 0;
        int i = 0;
        while (i < b.length) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                out[n++] = (char) c;
                i++;
                continue;
            }
            int len = sequenceLength(b, i);
            if (len == 0) {
                out[n++] = REPLACEMENT;
                i++;
                continue;
            }
            int cp = switch (len) {
                case 2 -> ((c & 0x1F) << 6) | (b[i + 1] & 0x3F);
                case 3 -> ((c & 0x0F) << 12) | ((b[i + 1] & 0x3F) << 6) | (b[i + 2] & 0x3F);
                default -> ((c & 0x07) << 18) | ((b[i + 1] & 0x3F) << 12) | ((b[i + 2] & 0x3F) << 6) | (b[i + 3] & 0x3F);
            };
            n += Character.toChars(cp, out, n);
            i += len;
        }
        return n == out.length ? out : java.util.Arrays.copyOf(out, n);
    }

    /**
     * The length of the valid sequence starting at {@code i} (2 to 4), or 0 if there is none: the ranges of
     * Go's {@code utf8.DecodeRune} (no overlong forms, no surrogates, nothing above U+10FFFF).
     */
    private static int sequenceLength(byte[] b, int i) {
        int c = b[i] & 0xFF;
        if (c < 0xC2 || c > 0xF4) {
            return 0;
        }
        int len = c <= 0xDF ? 2 : c <= 0xEF ? 3 : 4;
        // the second byte's range is narrower after E0 (overlong), ED (surrogates), F0 (overlong), F4 (> U+10FFFF)
        int lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
        int hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
        if (i + len > b.length) {
            return 0;
        }
        int second = b[i + 1] & 0xFF;
        if (second < lo || second > hi) {
            return 0;
        }
        for (int k = 2; k < len; k++) {
            int cont = b[i + k] & 0xFF;
            if (cont < 0x80 || cont > 0xBF) {
                return 0;
            }
        }
        return len;
    }

    /**
     * {@code t} with every {@code \}{@code uXXXX} escape of a surrogate that is not a high surrogate
     * immediately followed by an escaped low surrogate rewritten into {@code \}{@code uFFFD} (same length, so
     * offsets stay right): {@code t} itself when there is none, else a copy.
     */
    private static char[] replaceUnpairedSurrogateEscapes(char[] t) {
        char[] out = t;
        int i = 0;
        while (i < t.length) {
            if (t[i] != '\\') {
                i++;
                continue;
            }
            int unit = escapedUnit(t, i);
            if (unit < 0) {
                i += 2; // any other escape (or a syntax error): skip the escaped character
                continue;
            }
            if (Character.isHighSurrogate((char) unit)) {
                int next = escapedUnit(t, i + 6);
                if (next >= 0 && Character.isLowSurrogate((char) next)) {
                    i += 12;
                    continue;
                }
            }
            if (Character.isSurrogate((char) unit)) {
                if (out == t) {
                    out = t.clone();
                }
                out[i + 2] = 'F';
                out[i + 3] = 'F';
                out[i + 4] = 'F';
                out[i + 5] = 'D';
            }
            i += 6;
        }
        return out;
    }

    /** The code unit of a {@code \}{@code uXXXX} escape at {@code i}, or -1 if there is none. */
    private static int escapedUnit(char[] t, int i) {
        if (i + 6 > t.length || t[i] != '\\' || t[i + 1] != 'u') {
            return -1;
        }
        int v = 0;
        for (int k = i + 2; k < i + 6; k++) {
            int d = Character.digit(t[k], 16);
            if (d < 0 || t[k] > 'f') { // Character.digit also accepts non-ASCII digits
                return -1;
            }
            v = (v << 4) | d;
        }
        return v;
    }

    /**
     * {@code s} cut to at most {@code max} characters and marked with {@code ...}, never between the two halves
     * of a surrogate pair (a lone surrogate cannot be written as UTF-8): what is kept is always a prefix of
     * {@code s}. {@code s} itself when it is not longer.
     */
    public static String clip(String s, int max) {
        if (s.length() <= max) {
            return s;
        }
        int end = Character.isHighSurrogate(s.charAt(max - 1)) ? max - 1 : max;
        return s.substring(0, end) + "...";
    }

    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }
}
