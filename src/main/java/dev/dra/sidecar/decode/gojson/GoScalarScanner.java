package dev.dra.sidecar.decode.gojson;

/**
 * Go's {@code encoding/json} scanner for a stream value that is not an object or an array.
 *
 * <p>Why not Jackson: Go's {@code Decoder} ends a scalar at the first byte that cannot continue it and returns
 * the complete value ({@code 5}, {@code 01} read as {@code 0}, {@code truex} read as {@code true}); only the
 * <em>next</em> read would complain. Such a value is then refused as "not an object": an invalid object, not
 * a malformed stream. Jackson instead insists on whitespace after a root-level number or token.
 */
public final class GoScalarScanner {

    /** Thrown for what Go's scanner reports as a syntax error (or an unexpected end of input). */
    public static final class SyntaxError extends Exception {
        SyntaxError(String message) {
            super(message, null, false, false);
        }
    }

    private GoScalarScanner() {}

    /**
     * Scans the scalar starting at {@code i} (the first non-whitespace byte of the value).
     *
     * @return the JSON type of the complete value: {@code string}, {@code number}, {@code boolean} or {@code null}
     * @throws SyntaxError if the bytes do not form a complete scalar
     */
    public static String scan(char[] t, int i) throws SyntaxError {
        char c = t[i];
        if (c == '"') {
            string(t, i + 1);
            return "string";
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            number(t, i);
            return "number";
        }
        if (c == 't' || c == 'f') {
            literal(t, i, c == 't' ? "true" : "false");
            return "boolean";
        }
        if (c == 'n') {
            literal(t, i, "null");
            return "null";
        }
        throw new SyntaxError("invalid character " + quote(c) + " looking for beginning of value");
    }

    private static void string(char[] t, int i) throws SyntaxError {
        while (i < t.length) {
            char c = t[i];
            if (c == '"') {
                return;
            }
            if (c < 0x20) {
                throw new SyntaxError("invalid character " + quote(c) + " in string literal");
            }
            if (c == '\\') {
                if (i + 1 >= t.length) {
                    break;
                }
                char e = t[i + 1];
                if (e == 'u') {
                    for (int k = i + 2; k < i + 6; k++) {
                        if (k >= t.length) {
                            throw unexpectedEnd();
                        }
                        if (!isHex(t[k])) {
                            throw new SyntaxError("invalid character " + quote(t[k]) + " in \\u hexadecimal character escape");
                        }
                    }
                    i += 6;
                    continue;
                }
                if ("\"\\/bfnrt".indexOf(e) < 0) {
                    throw new SyntaxError("invalid character " + quote(e) + " in string escape code");
                }
                i += 2;
                continue;
            }
            i++;
        }
        throw unexpectedEnd();
    }

    private static void number(char[] t, int i) throws SyntaxError {
        if (t[i] == '-') {
            i++;
            if (i >= t.length) {
                throw unexpectedEnd();
            }
            if (!isDigit(t[i])) {
                throw new SyntaxError("invalid character " + quote(t[i]) + " in numeric literal");
            }
        }
        if (t[i] == '0') {
            i++;
        } else {
            i = digits(t, i);
        }
        if (i < t.length && t[i] == '.') {
            i = requiredDigits(t, i + 1, "after decimal point in numeric literal");
        }
        if (i < t.length && (t[i] == 'e' || t[i] == 'E')) {
            i++;
            if (i < t.length && (t[i] == '+' || t[i] == '-')) {
                i++;
            }
            requiredDigits(t, i, "in exponent of numeric literal");
        }
        // any other byte, or the end of the input, completes the number
    }

    private static int requiredDigits(char[] t, int i, String where) throws SyntaxError {
        if (i >= t.length) {
            throw unexpectedEnd();
        }
        if (!isDigit(t[i])) {
            throw new SyntaxError("invalid character " + quote(t[i]) + " " + where);
        }
        return digits(t, i);
    }

    private static int digits(char[] t, int i) {
        while (i < t.length && isDigit(t[i])) {
            i++;
        }
        return i;
    }

    private static void literal(char[] t, int i, String word) throws SyntaxError {
        for (int k = 0; k < word.length(); k++) {
            if (i + k >= t.length) {
                throw unexpectedEnd();
            }
            if (t[i + k] != word.charAt(k)) {
                throw new SyntaxError("invalid character " + quote(t[i + k]) + " in literal " + word
                        + " (expecting " + quote(word.charAt(k)) + ")");
            }
        }
    }

    private static SyntaxError unexpectedEnd() {
        return new SyntaxError("unexpected EOF");
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHex(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static String quote(char c) {
        return c < 0x20 ? String.format("'\\x%02x'", (int) c) : "'" + c + "'";
    }
}
