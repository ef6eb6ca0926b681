package dev.dra.sidecar.decode.goyaml;

import dev.dra.sidecar.decode.goyaml.GoYamlToken.Type;

/**
 * go-yaml v2's scanning of scalars, anchors, aliases and tags ({@code scannerc.go} of {@code go.yaml.in/yaml/v2}
 * v2.4.4: {@code yaml_parser_scan_flow_scalar}, {@code yaml_parser_scan_plain_scalar},
 * {@code yaml_parser_scan_anchor}, {@code yaml_parser_scan_tag} with {@code yaml_parser_scan_tag_handle},
 * {@code yaml_parser_scan_tag_uri} and {@code yaml_parser_scan_uri_escapes}, and the header of
 * {@code yaml_parser_scan_block_scalar}), each asking the reader for the
 * characters at the places go-yaml does, since where the reader refills decides its buffer's head
 * ({@link GoYamlReader}).
 */
final class GoYamlScalars {

    /** A plain scalar and whether it ended past a line break (which lets a simple key follow). */
    record Plain(GoYamlToken token, boolean leadingBlanks) {}

    private final GoYamlReader r;

    GoYamlScalars(GoYamlReader reader) {
        this.r = reader;
    }

    GoYamlToken flowScalar(boolean single) {
        GoYamlError.Mark start = r.mark();
        r.skip();
        Text text = new Text();
        StringBuilder s = text.s;
        while (true) {
            r.cache(4);
            if (r.atDocumentIndicator()) {
                throw GoYamlError.scanner("found unexpected document indicator", r.mark());
            }
            if (r.at(0) == 0) {
                throw GoYamlError.scanner("found unexpected end of stream", r.mark());
            }
            text.leadingBlanks = false;
            while (!r.isBlankz(0)) {
                int c = r.at(0);
                if (single && c == '\'' && r.at(1) == '\'') {
                    s.append('\'');
                    r.skip();
                    r.skip();
                } else if (single && c == '\'' || !single && c == '"') {
                    break;
                } else if (!single && c == '\\' && r.isBreak(1)) {
                    r.cache(3);
                    r.skip();
                    r.skipLine();
                    text.leadingBlanks = true;
                    break;
                } else if (!single && c == '\\') {
                    escape(s);
                } else {
                    r.read(s);
                }
                r.cache(2);
            }
            r.cache(1);
            if (r.at(0) == (single ? '\'' : '"')) {
                break;
            }
            text.blanks(Integer.MIN_VALUE);
            text.join();
        }
        r.skip();
        return new GoYamlToken(Type.SCALAR, start, r.mark(), s.toString(), null, false);
    }

    /** One escape of a double-quoted scalar, the cursor on its backslash. */
    private void escape(StringBuilder s) {
        int codeLength = 0;
        int e = r.at(1);
        switch (e) {
            case '0' -> s.append('\0');
            case 'a' -> s.append('\u0007');
            case 'b' -> s.append('\b');
            case 't', '\t' -> s.append('\t');
            case 'n' -> s.append('\n');
            case 'v' -> s.append('\u000B');
            case 'f' -> s.append('\f');
            case 'r' -> s.append('\r');
            case 'e' -> s.append('\u001B');
            case ' ' -> s.append(' ');
            case '"' -> s.append('"');
            case '\'' -> s.append('\'');
            case '\\' -> s.append('\\');
            case 'N' -> s.append('\u0085');
            case '_' -> s.append('\u00A0');
            case 'L' -> s.append('\u2028');
            case 'P' -> s.append('\u2029');
            case 'x' -> codeLength = 2;
            case 'u' -> codeLength = 4;
            case 'U' -> codeLength = 8;
            default -> throw GoYamlError.scanner("found unknown escape character", r.mark());
        }
        r.skip();
        r.skip();
        if (codeLength > 0) {
            r.cache(codeLength);
            long value = 0;
            for (int k = 0; k < codeLength; k++) {
                if (!r.isHex(k)) {
                    throw GoYamlError.scanner("did not find expected hexdecimal number", r.mark());
                }
                value = (value << 4) + Character.digit(r.at(k), 16);
            }
            if (value >= 0xD800 && value <= 0xDFFF || value > 0x10FFFF) {
                throw GoYamlError.scanner("found invalid Unicode character escape code", r.mark());
            }
            s.appendCodePoint((int) value);
            for (int k = 0; k < codeLength; k++) {
                r.skip();
            }
        }
    }

    /**
     * A scalar's text as it is scanned: its runs, and the blanks and breaks between them, which are joined
     * (blanks kept, a single line break folded to a space) when the next run starts.
     */
    private final class Text {
        final StringBuilder s = new StringBuilder();
        final StringBuilder leadingBreak = new StringBuilder();
        final StringBuilder trailingBreaks = new StringBuilder();
        final StringBuilder whitespaces = new StringBuilder();
        boolean leadingBlanks;

        /** Consumes blanks and breaks; a tab in the indentation before column {@code indent} is an error. */
        void blanks(int indent) {
            while (r.isBlank(0) || r.isBreak(0)) {
                if (r.isBlank(0)) {
                    if (leadingBlanks && r.column < indent && r.at(0) == '\t') {
                        throw GoYamlError.scanner("found a tab character that violates indentation", r.mark());
                    }
                    if (!leadingBlanks) {
                        r.read(whitespaces);
                    } else {
                        r.skip();
                    }
                } else {
                    r.cache(2);
                    if (!leadingBlanks) {
                        whitespaces.setLength(0);
                        r.readLine(leadingBreak);
                        leadingBlanks = true;
                    } else {
                        r.readLine(trailingBreaks);
                    }
                }
                r.cache(1);
            }
        }

        void join() {
            if (leadingBlanks) {
                if (!leadingBreak.isEmpty() && leadingBreak.charAt(0) == '\n') {
                    s.append(trailingBreaks.isEmpty() ? " " : trailingBreaks);
                } else {
                    s.append(leadingBreak).append(trailingBreaks);
                }
                trailingBreaks.setLength(0);
                leadingBreak.setLength(0);
            } else {
                s.append(whitespaces);
                whitespaces.setLength(0);
            }
        }
    }

    Plain plain(int indent, int flowLevel) {
        Text text = new Text();
        int minIndent = indent + 1;
        GoYamlError.Mark start = r.mark();
        GoYamlError.Mark end = r.mark();
        while (true) {
            r.cache(4);
            if (r.atDocumentIndicator() || r.at(0) == '#') {
                break;
            }
            while (!r.isBlankz(0)) {
                int c = r.at(0);
                if (c == ':' && r.isBlankz(1) || flowLevel > 0 && (c == ',' || c == '?' || c == '['
                        || c == ']' || c == '{' || c == '}')) {
                    break;
                }
                if (text.leadingBlanks || !text.whitespaces.isEmpty()) {
                    text.join();
                    text.leadingBlanks = false;
                }
                r.read(text.s);
                end = r.mark();
                r.cache(2);
            }
            if (!(r.isBlank(0) || r.isBreak(0))) {
                break;
            }
            r.cache(1);
            text.blanks(minIndent);
            if (flowLevel == 0 && r.column < minIndent) {
                break;
            }
        }
        return new Plain(new GoYamlToken(Type.SCALAR, start, end, text.s.toString(), null, true), text.leadingBlanks);
    }

    /**
     * The header of a block scalar ({@code yaml_parser_scan_block_scalar} up to its first line break): its
     * indicators, blanks and comment, which must end the line.
     */
    void blockScalarHeader() {
        r.skip();
        r.cache(1);
        if (r.at(0) == '+' || r.at(0) == '-') {
            r.skip();
            r.cache(1);
            indentationIndicator();
        } else if (indentationIndicator()) {
            r.cache(1);
            if (r.at(0) == '+' || r.at(0) == '-') {
                r.skip();
            }
        }
        r.cache(1);
        while (r.isBlank(0)) {
            r.skip();
            r.cache(1);
        }
        r.skipComment();
        if (!r.isBreakz(0)) {
            throw GoYamlError.scanner("did not find expected comment or line break", r.mark());
        }
    }

    private boolean indentationIndicator() {
        if (r.at(0) < '0' || r.at(0) > '9') {
            return false;
        }
        if (r.at(0) == '0') {
            throw GoYamlError.scanner("found an indentation indicator equal to 0", r.mark());
        }
        r.skip();
        return true;
    }

    GoYamlToken anchor(Type type) {
        GoYamlError.Mark start = r.mark();
        r.skip();
        r.cache(1);
        StringBuilder s = new StringBuilder();
        while (r.isAlpha(0)) {
            r.read(s);
            r.cache(1);
        }
        GoYamlError.Mark end = r.mark();
        if (s.isEmpty() || !(r.isBlankz(0) || "?:,]}%@`".indexOf(r.at(0)) >= 0 && r.at(0) != 0)) {
            throw GoYamlError.scanner("did not find expected alphabetic or numeric character", r.mark());
        }
        return new GoYamlToken(type, start, end, s.toString(), null, false);
    }

    GoYamlToken tag() {
        GoYamlError.Mark start = r.mark();
        r.cache(2);
        String handle;
        String suffix;
        if (r.at(1) == '<') {
            handle = "";
            r.skip();
            r.skip();
            suffix = tagUri(null);
            if (r.at(0) != '>') {
                throw GoYamlError.scanner("did not find the expected '>'", r.mark());
            }
            r.skip();
        } else {
            handle = tagHandle();
            if (handle.length() > 1 && handle.charAt(0) == '!' && handle.charAt(handle.length() - 1) == '!') {
                suffix = tagUri(null);
            } else {
                suffix = tagUri(handle);
                handle = "!";
                if (suffix.isEmpty()) {
                    handle = "";
                    suffix = "!";
                }
            }
        }
        r.cache(1);
        if (!r.isBlankz(0)) {
            throw GoYamlError.scanner("did not find expected whitespace or line break", r.mark());
        }
        return new GoYamlToken(Type.TAG, start, r.mark(), handle, suffix, false);
    }

    private String tagHandle() {
        r.cache(1);
        if (r.at(0) != '!') {
            throw GoYamlError.scanner("did not find expected '!'", r.mark());
        }
        StringBuilder s = new StringBuilder();
        r.read(s);
        r.cache(1);
        while (r.isAlpha(0)) {
            r.read(s);
            r.cache(1);
        }
        if (r.at(0) == '!') {
            r.read(s);
        }
        return s.toString();
    }

    private String tagUri(String head) {
        StringBuilder s = new StringBuilder();
        boolean hasTag = head != null && !head.isEmpty();
        if (head != null && head.length() > 1) {
            s.append(head, 1, head.length());
        }
        r.cache(1);
        while (r.isAlpha(0) || ";/?:@&=+$,.!~*'()[]%".indexOf(r.at(0)) >= 0 && r.at(0) != 0) {
            if (r.at(0) == '%') {
                uriEscapes(s);
            } else {
                r.read(s);
            }
            r.cache(1);
            hasTag = true;
        }
        if (!hasTag) {
            throw GoYamlError.scanner("did not find expected tag URI", r.mark());
        }
        return s.toString();
    }

    private void uriEscapes(StringBuilder s) {
        int w = 1024;
        java.io.ByteArrayOutputStream octets = new java.io.ByteArrayOutputStream();
        while (w > 0) {
            r.cache(3);
            if (!(r.at(0) == '%' && r.isHex(1) && r.isHex(2))) {
                throw GoYamlError.scanner("did not find URI escaped octet", r.mark());
            }
            int octet = (Character.digit(r.at(1), 16) << 4) + Character.digit(r.at(2), 16);
            if (w == 1024) {
                w = GoYamlReader.width(octet);
                if (w == 0) {
                    throw GoYamlError.scanner("found an incorrect leading UTF-8 octet", r.mark());
                }
            } else if ((octet & 0xC0) != 0x80) {
                throw GoYamlError.scanner("found an incorrect trailing UTF-8 octet", r.mark());
            }
            octets.write(octet);
            r.skip();
            r.skip();
            r.skip();
            w--;
        }
        s.append(octets.toString(java.nio.charset.StandardCharsets.UTF_8));
    }
}
