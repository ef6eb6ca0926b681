package dev.dra.sidecar.decode.gojson;

/**
 * Go's {@code encoding/json} scanner, run over the bytes of a stream only to word a syntax error as Go's
 * {@code json.Decoder} words it ({@code invalid character 'x' looking for beginning of object key string},
 * {@code unexpected EOF}, {@code invalid character '[' exceeded max depth}).
 *
 * <p>It follows the decoder's loop: skip whitespace, stop where {@code Decoder.More} is false (at the end or
 * at a closing {@code ]} or {@code }}), scan one object or array, repeat. The caller has already found a
 * syntax error with its own parser; values before the failing one are objects or arrays (a scalar at the top
 * level is refused before any syntax is checked), so this scanner meets the same failing value.
 */
public final class GoSyntaxScanner {

    /** Go's {@code maxNestingDepth}. */
    private static final int MAX_DEPTH = 10_000;

    private final byte[] b;
    private int i;
    /** The open containers: '{' expecting a key, ':' expecting an object value, '[' in an array. */
    private final byte[] stack = new byte[MAX_DEPTH + 1];
    private int depth;

    private GoSyntaxScanner(byte[] stream) {
        this.b = stream;
    }

    /** Go's text for the first syntax error of {@code stream}, or {@code null} if Go's scanner finds none. */
    public static String firstError(byte[] stream) {
        GoSyntaxScanner s = new GoSyntaxScanner(stream);
        try {
            while (true) {
                s.skipSpace();
                if (s.i >= s.b.length || s.b[s.i] == '}' || s.b[s.i] == ']') {
                    return null;
                }
                s.value();
            }
        } catch (Failure f) {
            return f.getMessage();
        }
    }

    /**
     * The byte offsets {start, end} of top-level value {@code index} (counting from 0) as Go's decoder delimits
     * it ({@code json.RawMessage}), or {@code null} if Go's scanner fails before its end.
     */
    public static int[] valueBounds(byte[] stream, int index) {
        GoSyntaxScanner s = new GoSyntaxScanner(stream);
        try {
            for (int n = 0; ; n++) {
                s.skipSpace();
                int start = s.i;
                s.value();
                if (n == index) {
                    return new int[] {start, s.i};
                }
            }
        } catch (Failure f) {
            return null;
        }
    }

    private static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message, null, false, false);
        }
    }

    /** Scans one complete top-level value starting at {@code i}, with no recursion however deep it nests. */
    private void value() throws Failure {
        boolean valueNext = beginValue();
        while (valueNext || depth > 0) {
            skipSpace();
            if (valueNext) {
                valueNext = beginValue();
                continue;
            }
            int c = next();
            byte top = stack[depth - 1];
            if (top == '{') { // after a key
                if (c != ':') {
                    throw invalid(c, "after object key");
                }
                stack[depth - 1] = ':';
                valueNext = true;
            } else if (top == ':') { // after an object value
                if (c == ',') {
                    stack[depth - 1] = '{';
                    skipSpace();
                    key();
                } else if (c == '}') {
                    depth--;
                } else {
                    throw invalid(c, "after object key:value pair");
                }
            } else { // after an array element
                if (c == ',') {
                    valueNext = true;
                } else if (c == ']') {
                    depth--;
                } else {
                    throw invalid(c, "after array element");
                }
            }
        }
    }

    /**
     * Go's {@code stateBeginValue}: a scalar is scanned whole, an object is opened and its first key read, an
     * array is opened.
     *
     * @return whether an array was opened whose first element comes next
     */
    private boolean beginValue() throws Failure {
        int c = next();
        switch (c) {
            case '{' -> {
                push(c, '{');
                skipSpace();
                if (peek() == '}') {
                    i++;
                    depth--;
                } else {
                    key();
                }
            }
            case '[' -> {
                push(c, '[');
                skipSpace();
                if (peek() != ']') {
                    return true;
                }
                i++;
                depth--;
            }
            case '"' -> string();
            case '-' -> {
                int d = next();
                if (d < '0' || d > '9') {
                    throw invalid(d, "in numeric literal");
                }
                number(d);
            }
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> {
                if (c >= '0' && c <= '9') {
                    number(c);
                } else {
                    throw invalid(c, "looking for beginning of value");
                }
            }
        }
        return false;
    }

    private void key() throws Failure {
        int c = next();
        if (c != '"') {
            throw invalid(c, "looking for beginning of object key string");
        }
        string();
    }

    private void push(int c, char state) throws Failure {
        if (depth == MAX_DEPTH) {
            throw invalid(c, "exceeded max depth");
        }
        stack[depth++] = (byte) state;
    }

    private void string() throws Failure {
        while (true) {
            int c = next();
            if (c == '"') {
                return;
            }
            if (c == '\\') {
                int e = next();
                if (e == 'u') {
                    for (int k = 0; k < 4; k++) {
                        int h = next();
                        if (Character.digit(h, 16) < 0 || h > 'f') {
                            throw invalid(h, "in \\u hexadecimal character escape");
                        }
                    }
                } else if ("bfnrt\\/\"".indexOf(e) < 0) {
                    throw invalid(e, "in string escape code");
                }
            } else if (c < 0x20) {
                throw invalid(c, "in string literal");
            }
        }
    }

    /** The rest of a number whose first digit {@code first} was read; it ends at any other byte. */
    private void number(int first) throws Failure {
        if (first != '0') {
            digits();
        }
        if (peek() == '.') {
            i++;
            int d = next();
            if (d < '0' || d > '9') {
                throw invalid(d, "after decimal point in numeric literal");
            }
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            i++;
            int s = next();
            if (s == '+' || s == '-') {
                s = next();
            }
            if (s < '0' || s > '9') {
                throw invalid(s, "in exponent of numeric literal");
            }
            digits();
        }
    }

    private void digits() {
        while (i < b.length && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
    }

    private void literal(String word) throws Failure {
        for (int k = 1; k < word.length(); k++) {
            int c = next();
            if (c != word.charAt(k)) {
                throw invalid(c, "in literal " + word + " (expecting " + quoteChar(word.charAt(k)) + ")");
            }
        }
    }

    private void skipSpace() {
        while (i < b.length && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) {
            i++;
        }
    }

    private int peek() {
        return i < b.length ? b[i] & 0xFF : -1;
    }

    /** The next byte; the end of the input inside a value is Go's {@code io.ErrUnexpectedEOF}. */
    private int next() throws Failure {
        if (i >= b.length) {
            throw new Failure("unexpected EOF");
        }
        return b[i++] & 0xFF;
    }

    private static Failure invalid(int c, String context) {
        if (c < 0) {
            return new Failure("unexpected EOF");
        }
        return new Failure("invalid character " + quoteChar(c) + " " + context);
    }

    /** Go's {@code quoteChar}: the byte as a rune, quoted as {@code strconv.Quote} would, in single quotes. */
    static String quoteChar(int c) {
        if (c == '\'') {
            return "'\\''";
        }
        if (c == '"') {
            return "'\"'";
        }
        String inner = switch (c) {
            case 0x07 -> "\\a";
            case '\b' -> "\\b";
            case '\f' -> "\\f";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            case 0x0B -> "\\v";
            case '\\' -> "\\\\";
            default -> {
                if (c < 0x20 || c == 0x7F) {
                    yield String.format("\\x%02x", c);
                }
                boolean printable = c < 0x7F || (c >= 0xA1 && c != 0xAD);
                yield printable ? String.valueOf((char) c) : String.format("\\u%04x", c);
            }
        };
        return "'" + inner + "'";
    }
}
