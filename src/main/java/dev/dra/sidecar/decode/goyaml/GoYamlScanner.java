package dev.dra.sidecar.decode.goyaml;

import java.nio.charset.StandardCharsets;

/**
 * go-yaml v2's scanner and parser ({@code scannerc.go}, {@code parserc.go} of {@code go.yaml.in/yaml/v2} v2.4.4)
 * over a well-formed JSON value that is not an object: the first place where they refuse what JSON accepts, in the
 * order they meet it. Breaks are LF, CR, CRLF and, inside strings (where JSON takes them as characters), NEL, LS
 * and PS. The rules, each with the code it follows:
 * <ul>
 * <li>an escape YAML lacks: {@code \/} is {@code found unknown escape character}, a {@code &#92;u} escape of a
 *     surrogate {@code found invalid Unicode character escape code} ({@code yaml_parser_scan_flow_scalar});
 * <li>a break inside a string followed at once by {@code ---} or {@code ...} and a blank (space, NEL, LS, PS) is
 *     {@code found unexpected document indicator} (the check at the top of {@code yaml_parser_scan_flow_scalar}'s
 *     loop, at column 0);
 * <li>a key is an implicit ("simple") key ({@code yaml_parser_save_simple_key}), valid only while the scanner is
 *     on its line and at most 1024 characters (code points, as written) past its opening quote
 *     ({@code yaml_simple_key_is_valid}). A key whose {@code :} comes on a later line (a break between them, or
 *     inside the key) or more than 1024 characters after its quote is no key: {@code yaml_parser_fetch_value}
 *     makes the {@code :} a value with no key, and the parser, having read the string as a key with an empty
 *     value, wants {@code ,} or {@code \}} there: {@code did not find expected ',' or '}'}
 *     ({@code yaml_parser_parse_flow_mapping_key}). Not required in flow context, so never the scanner's
 *     {@code could not find expected ':'}.
 * </ul>
 * A scanner error names the line ({@code line N: }, counting from 1) past the first; a parser error names the
 * 0-based line of its token when that is not 0, else the line of the mapping's {@code \{} (so, for the key rule,
 * {@code line N: } exactly when the {@code :} is past the first line) ({@code parser.fail} in {@code decode.go}).
 * <p>What JSON and go-yaml v2 read alike here: tabs, line breaks and any indentation between tokens (flow context
 * skips tabs and has no indentation: {@code yaml_parser_scan_to_next_token}, {@code yaml_parser_unroll_indent});
 * a {@code :} right after a key ({@code yaml_parser_fetch_next_token} takes any {@code :} in flow context); nesting
 * to 10,000 levels ({@code max_flow_level}, the same as {@code encoding/json}'s); repeated keys and a quoted
 * {@code "<<"} (no merge: it is not plain). Breaks inside value strings are folded, which changes no answer.
 */
final class GoYamlScanner {

    /** The 1024 characters of {@code yaml_simple_key_is_valid}. */
    static final int SIMPLE_KEY_LIMIT = 1024;
    /**
     * A refusal: its message (after {@code yaml: }) and the offset past the last byte the scanner had asked the
     * reader for when it met it (a reader error in a chunk up to there comes first).
     */
    record Problem(String message, int decodedTo) {}

    private final byte[] b;
    private final int end;
    private final int valueEnd;
    private int lines;
    private int chars;
    /** How far the scanner has asked the reader to decode ({@code yaml_parser_update_buffer}'s lengths). */
    private int demand;

    private GoYamlScanner(byte[] b, int end, int valueEnd) {
        this.b = b;
        this.end = end;
        this.valueEnd = valueEnd;
    }

    /**
     * The first refusal in well-formed JSON value {@code b[start, valueEnd)} before {@code end} (where the reader
     * fails, or the value's end), or null when go-yaml reads that far.
     */
    static Problem firstProblem(byte[] b, int start, int end, int valueEnd) {
        return new GoYamlScanner(b, end, valueEnd).scan(start);
    }

    private Problem scan(int start) {
        // One frame per open container: whether it is an object; the key being read: its first char and line.
        boolean[] objects = new boolean[64];
        int depth = 0;
        boolean expectKey = false;
        int keyChar = -1;
        int keyLine = -1;
        for (int i = start; i < end; i++) {
            int c = b[i] & 0xFF;
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                need(i, 4); // a token starts: yaml_parser_fetch_next_token's 4 characters
            }
            if (c == '"') {
                if (expectKey) {
                    keyChar = chars;
                    keyLine = lines;
                }
                chars++;
                int[] string = new int[1];
                Problem p = string(i + 1, string);
                if (p != null) {
                    return p;
                }
                i = string[0];
                chars++;
                expectKey = false;
                continue;
            }
            if (c == '\n' || c == '\r' && (i + 1 >= end || b[i + 1] != '\n')) {
                lines++;
            } else if (c == '[' || c == '{') {
                if (depth == objects.length) {
                    objects = java.util.Arrays.copyOf(objects, depth * 2);
                }
                objects[depth++] = c == '{';
                expectKey = c == '{';
            } else if (c == ']' || c == '}') {
                depth--;
            } else if (c == ',') {
                expectKey = objects[depth - 1];
            } else if (c == ':' && (keyLine != lines || chars - keyChar > SIMPLE_KEY_LIMIT)) {
                return new Problem((lines > 0 ? "line " + lines + ": " : "") + "did not find expected ',' or '}'", demand);
            }
            chars++;
            need(i + 1, 2); // the next character (a plain scalar's loop asks for 2)
        }
        return null;
    }

    /**
     * Scans the string whose content starts at {@code i} (past its quote), counting its characters and breaks;
     * puts the offset of its closing quote in {@code close[0]} ({@code end} if it does not close before).
     */
    private Problem string(int i, int[] close) {
        close[0] = end; // unless it closes before the reader's error
        boolean runStarts = true;
        while (i < end && b[i] != '"') {
            if (runStarts) {
                need(i, 4); // the top of yaml_parser_scan_flow_scalar's loop
                runStarts = false;
            }
            int c = b[i] & 0xFF;
            int breakWidth = breakWidth(i);
            if (breakWidth > 0 || c == ' ') {
                lines += breakWidth > 0 ? 1 : 0;
                chars++;
                i += Math.max(1, breakWidth);
                need(i, 1);
                runStarts = true;
                if (breakWidth > 0 && isDocumentIndicator(i)) {
                    need(i, 4);
                    return new Problem("line " + (lines + 1) + ": found unexpected document indicator", demand);
                }
                continue;
            }
            if (c == '\\') {
                if (i + 1 >= end) {
                    return null;
                }
                int e = b[i + 1];
                if (e == '/') {
                    return new Problem(where() + "found unknown escape character", demand);
                }
                if (e == 'u') {
                    need(i + 2, 4);
                    if (i + 6 > end) {
                        return null;
                    }
                    int unit = Integer.parseInt(new String(b, i + 2, 4, StandardCharsets.US_ASCII), 16);
                    if (unit >= 0xD800 && unit <= 0xDFFF) {
                        return new Problem(where() + "found invalid Unicode character escape code", demand);
                    }
                    chars += 6;
                    i += 6;
                } else {
                    chars += 2;
                    i += 2;
                }
                need(i, 2);
                continue;
            }
            chars++;
            i++;
            while (i < end && (b[i] & 0xC0) == 0x80) {
                i++;
            }
            need(i, 2); // each character of the run asks for the next 2
        }
        if (i < end) {
            close[0] = i;
        }
        return null;
    }

    private String where() {
        return lines > 0 ? "line " + (lines + 1) + ": " : "";
    }

    /** The width of the NEL, LS or PS at {@code i}, else 0 (the only breaks JSON lets into a string). */
    private int breakWidth(int i) {
        int c = b[i] & 0xFF;
        if (c == 0xC2 && i + 1 < end && (b[i + 1] & 0xFF) == 0x85) {
            return 2;
        }
        return c == 0xE2 && i + 2 < end && (b[i + 1] & 0xFF) == 0x80
                && ((b[i + 2] & 0xFF) == 0xA8 || (b[i + 2] & 0xFF) == 0xA9) ? 3 : 0;
    }

    /** {@code ---} or {@code ...} at {@code i}, then a blank: space, or a break (tab and NUL are no JSON here). */
    private boolean isDocumentIndicator(int i) {
        if (i + 3 >= end || !(b[i] == '-' && b[i + 1] == '-' && b[i + 2] == '-' || b[i] == '.' && b[i + 1] == '.'
                && b[i + 2] == '.')) {
            return false;
        }
        return b[i + 3] == ' ' || breakWidth(i + 3) > 0;
    }

    /** The scanner asks for the {@code count} characters from {@code i} (as far as the value goes). */
    private void need(int i, int count) {
        int at = i;
        for (int n = 0; n < count && at < valueEnd; n++) {
            at++;
            while (at < valueEnd && (b[at] & 0xC0) == 0x80) {
                at++;
            }
        }
        demand = Math.max(demand, at);
    }
}
