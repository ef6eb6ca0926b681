package dev.dra.sidecar.decode.goyaml;

/**
 * go-yaml v2's reader ({@code readerc.go} of {@code go.yaml.in/yaml/v2} v2.4.4) over UTF-8 input
 * {@code b[start, end)}, with the scanner's cursor ({@code skip}, {@code skip_line}, {@code read},
 * {@code read_line} of {@code scannerc.go}) and its mark. The decoded buffer holds the input's own bytes (UTF-8 in,
 * UTF-8 out), so it is not copied: positions are offsets in {@code b}, and the NUL characters the reader appends at
 * the end of the input, and the bytes it pads with, read as 0.
 * <p>What this models exactly, because answers depend on it: {@link #cache} refills only when fewer characters
 * than asked are unread ({@code yaml_parser_update_buffer}), then moves the unread characters to the head of the
 * buffer (so the head becomes the character at the cursor: {@link #headIsBom}, which go-yaml's {@code is_bom}
 * tests whatever index it is given) and decodes all raw bytes it holds, reading {@value #RAW_SIZE} more bytes
 * ({@code yaml_parser_update_raw_buffer}; a character cut by a read's end waits for the next); at the end of input
 * it appends one NUL per refill. A malformed or unprintable character fails the refill that decodes it.
 */
final class GoYamlReader {

    /** {@code input_raw_buffer_size}. */
    static final int RAW_SIZE = 512;

    private static final String[] PROBLEMS = {"invalid leading UTF-8 octet", "incomplete UTF-8 octet sequence",
        "invalid trailing UTF-8 octet", "invalid length of a UTF-8 sequence", "invalid Unicode character",
        "control characters are not allowed"};

    private final byte[] b;
    private final int end;
    /** Offset in {@code b} of the raw buffer's first byte, its decoded part and its end (the input read). */
    private int rawStart;
    private int rawPos;
    private int inputPos;
    private boolean eof;
    private boolean encodingKnown;
    /** The cursor ({@code buffer_pos}) and the buffer's head, as offsets; NULs past the end count one byte each. */
    int pos;
    private int head = -1;
    private int unread;
    int index;
    int line;
    int column;

    GoYamlReader(byte[] b, int start, int end) {
        this.b = b;
        this.end = end;
        this.rawStart = start;
        this.rawPos = start;
        this.inputPos = start;
        this.pos = start;
    }

    /** The byte {@code k} past the cursor (0 past the input). */
    int at(int k) {
        int i = pos + k;
        return i < end ? b[i] & 0xFF : 0;
    }

    /** Whether the buffer's head holds U+FEFF ({@code is_bom}). */
    boolean headIsBom() {
        return head >= 0 && head + 2 < end && (b[head] & 0xFF) == 0xEF && (b[head + 1] & 0xFF) == 0xBB
                && (b[head + 2] & 0xFF) == 0xBF;
    }

    /** Ensures {@code length} unread characters ({@code cache}, {@code yaml_parser_update_buffer}). */
    void cache(int length) {
        if (unread >= length) {
            return;
        }
        if (!encodingKnown) {
            determineEncoding();
        }
        head = pos;
        boolean first = true;
        while (unread < length) {
            if (!first || rawPos == inputPos) {
                updateRaw();
            }
            first = false;
            decodeRaw();
            if (eof) {
                unread++; // the NUL
                break;
            }
        }
    }

    private void determineEncoding() {
        while (!eof && inputPos - rawPos < 3) {
            updateRaw();
        }
        if (inputPos - rawPos >= 3 && (b[rawPos] & 0xFF) == 0xEF && (b[rawPos + 1] & 0xFF) == 0xBB
                && (b[rawPos + 2] & 0xFF) == 0xBF) {
            rawPos += 3;
            pos += 3;
        }
        encodingKnown = true;
    }

    private void updateRaw() {
        if (rawPos == rawStart && inputPos - rawStart == RAW_SIZE || eof) {
            return;
        }
        rawStart = rawPos;
        if (inputPos == end) {
            eof = true;
            return;
        }
        inputPos += Math.min(RAW_SIZE - (inputPos - rawStart), end - inputPos);
    }

    private void decodeRaw() {
        while (rawPos != inputPos) {
            int width = decode(b, rawPos, inputPos);
            if (width == 0 && !eof) {
                return;
            }
            if (width <= 0) {
                throw GoYamlError.reader(problem(width == 0 ? 1 : -1 - width));
            }
            rawPos += width;
            unread++;
        }
    }

    /**
     * How go-yaml's reader takes the character at {@code b[i]}: its width when it accepts it, 0 when its bytes
     * run past {@code limit}, else {@code -1 - p} for the problem {@link #problem p} it reports.
     */
    static int decode(byte[] b, int i, int limit) {
        int octet = b[i] & 0xFF;
        int width = width(octet);
        if (width == 0) {
            return -1;
        }
        if (width > limit - i) {
            return 0;
        }
        int value = width == 1 ? octet : octet & (0xFF >> (width + 1));
        for (int k = 1; k < width; k++) {
            int trailing = b[i + k] & 0xFF;
            if ((trailing & 0xC0) != 0x80) {
                return -3;
            }
            value = (value << 6) + (trailing & 0x3F);
        }
        if (width == 2 && value < 0x80 || width == 3 && value < 0x800 || width == 4 && value < 0x10000) {
            return -4;
        }
        if (value >= 0xD800 && value <= 0xDFFF || value > 0x10FFFF) {
            return -5;
        }
        boolean printable = value == 0x09 || value == 0x0A || value == 0x0D || value >= 0x20 && value <= 0x7E
                || value == 0x85 || value >= 0xA0 && value <= 0xD7FF || value >= 0xE000 && value <= 0xFFFD
                || value >= 0x10000;
        return printable ? width : -6;
    }

    /** The words of reader problem {@code p} (1: a character cut by the end of the input). */
    static String problem(int p) {
        return PROBLEMS[p];
    }

    /** The width of the UTF-8 character whose first byte is {@code octet} ({@code width}; 0 if none). */
    static int width(int octet) {
        return (octet & 0x80) == 0 ? 1 : (octet & 0xE0) == 0xC0 ? 2 : (octet & 0xF0) == 0xE0 ? 3
                : (octet & 0xF8) == 0xF0 ? 4 : 0;
    }

    GoYamlError.Mark mark() {
        return new GoYamlError.Mark(index, line, column);
    }

    /** {@code skip}. */
    void skip() {
        index++;
        column++;
        unread--;
        pos += width(at(0));
    }

    /** {@code skip_line}. */
    void skipLine() {
        if (at(0) == '\r' && at(1) == '\n') {
            index += 2;
            column = 0;
            line++;
            unread -= 2;
            pos += 2;
        } else if (isBreak(0)) {
            index++;
            column = 0;
            line++;
            unread--;
            pos += width(at(0));
        }
    }

    /** {@code read}: copies the character at the cursor to {@code s}. */
    void read(StringBuilder s) {
        int octet = at(0);
        int w = width(octet);
        if (w <= 1) {
            s.append((char) octet);
        } else {
            int value = octet & (0xFF >> (w + 1));
            for (int k = 1; k < w; k++) {
                value = (value << 6) | (at(k) & 0x3F);
            }
            s.appendCodePoint(value);
        }
        pos += Math.max(1, w);
        index++;
        column++;
        unread--;
    }

    /** {@code read_line}: copies the break at the cursor to {@code s} (CR, LF, CRLF and NEL as LF). */
    void readLine(StringBuilder s) {
        if (at(0) == '\r' && at(1) == '\n') {
            s.append('\n');
            pos += 2;
            index++;
            unread--;
        } else if (at(0) == '\r' || at(0) == '\n') {
            s.append('\n');
            pos += 1;
        } else if (at(0) == 0xC2 && at(1) == 0x85) {
            s.append('\n');
            pos += 2;
        } else if (at(0) == 0xE2 && at(1) == 0x80 && (at(2) == 0xA8 || at(2) == 0xA9)) {
            s.append(at(2) == 0xA8 ? '\u2028' : '\u2029');
            pos += 3;
        } else {
            return;
        }
        index++;
        column = 0;
        line++;
        unread--;
    }

    /** A comment, if one starts at the cursor, up to the line break or the end. */
    void skipComment() {
        if (at(0) == '#') {
            while (!isBreakz(0)) {
                skip();
                cache(1);
            }
        }
    }

    /** {@code ---} or {@code ...} at column 0, then a blank, a break or the end: a document marker. */
    boolean atDocumentIndicator() {
        int c = at(0);
        return column == 0 && (c == '-' || c == '.') && at(1) == c && at(2) == c && isBlankz(3);
    }

    boolean isBreak(int k) {
        int c = at(k);
        return c == '\r' || c == '\n' || c == 0xC2 && at(k + 1) == 0x85
                || c == 0xE2 && at(k + 1) == 0x80 && (at(k + 2) == 0xA8 || at(k + 2) == 0xA9);
    }

    boolean isBlank(int k) {
        return at(k) == ' ' || at(k) == '\t';
    }

    boolean isBlankz(int k) {
        return isBlank(k) || isBreak(k) || at(k) == 0;
    }

    boolean isBreakz(int k) {
        return isBreak(k) || at(k) == 0;
    }

    boolean isAlpha(int k) {
        int c = at(k);
        return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == '-';
    }

    boolean isHex(int k) {
        int c = at(k);
        return c >= '0' && c <= '9' || c >= 'A' && c <= 'F' || c >= 'a' && c <= 'f';
    }
}
