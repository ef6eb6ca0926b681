package dev.dra.sidecar.decode.goyaml;

import dev.dra.sidecar.decode.goyaml.GoYamlToken.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * go-yaml v2's scanner ({@code scannerc.go} of {@code go.yaml.in/yaml/v2} v2.4.4) turning a document into tokens
 * for {@link GoYamlEvents}: the token queue and its simple keys ({@code yaml_parser_fetch_more_tokens},
 * {@code yaml_simple_key_is_valid}, {@code yaml_parser_save_simple_key}, {@code yaml_parser_remove_simple_key}),
 * the dispatcher ({@code yaml_parser_fetch_next_token}), indicators, flow levels and block indentation
 * ({@code yaml_parser_roll_indent}, {@code yaml_parser_unroll_indent}), and what lies between tokens
 * ({@code yaml_parser_scan_to_next_token}, with its {@code is_bom} test of the buffer's head at column 0, which
 * skips one character whatever it is: {@link GoYamlReader#headIsBom}). Scalars, anchors and tags are scanned by
 * {@link GoYamlScalars}. Directives and block scalars past their header's errors, which the JSON arrays met here
 * hardly reach, are refused with {@link Unsupported}.
 */
final class GoYamlTokens {

    /** go-yaml would read a construct this port does not model (a block scalar or a directive). */
    static final class Unsupported extends RuntimeException {
        Unsupported(String what) {
            super(what, null, false, false);
        }
    }

    private static final class SimpleKey {
        boolean possible;
        boolean required;
        int tokenNumber;
        GoYamlError.Mark mark;
    }

    private static final int MAX_FLOW_LEVEL = 10_000;

    private final GoYamlReader r;
    private final GoYamlScalars scalars;
    private final List<GoYamlToken> tokens = new ArrayList<>();
    private int tokensHead;
    private int tokensParsed;
    private boolean tokenAvailable;
    private boolean streamStartProduced;
    private int flowLevel;
    private int indent;
    private final List<Integer> indents = new ArrayList<>();
    private final List<SimpleKey> simpleKeys = new ArrayList<>();
    private final Map<Integer, Integer> simpleKeysByToken = new HashMap<>();
    private boolean simpleKeyAllowed;

    GoYamlTokens(GoYamlReader reader) {
        this.r = reader;
        this.scalars = new GoYamlScalars(reader);
    }

    /** {@code peek_token}. */
    GoYamlToken peek() {
        if (!tokenAvailable) {
            fetchMoreTokens();
        }
        return tokens.get(tokensHead);
    }

    /** {@code skip_token}. */
    void skip() {
        tokenAvailable = false;
        tokensParsed++;
        tokensHead++;
    }

    private void fetchMoreTokens() {
        while (true) {
            if (tokensHead != tokens.size()) {
                Integer headKey = simpleKeysByToken.get(tokensParsed);
                if (headKey == null || !isValid(simpleKeys.get(headKey))) {
                    break;
                }
            }
            fetchNextToken();
        }
        tokenAvailable = true;
    }

    private boolean isValid(SimpleKey key) {
        if (!key.possible) {
            return false;
        }
        if (key.mark.line() < r.line || key.mark.index() + 1024 < r.index) {
            if (key.required) {
                throw GoYamlError.scanner("could not find expected ':'", r.mark());
            }
            key.possible = false;
            return false;
        }
        return true;
    }

    private void fetchNextToken() {
        r.cache(1);
        if (!streamStartProduced) {
            indent = -1;
            simpleKeys.add(new SimpleKey());
            simpleKeyAllowed = true;
            streamStartProduced = true;
            add(GoYamlToken.of(Type.STREAM_START, r.mark(), r.mark()));
            return;
        }
        scanToNextToken();
        unrollIndent(r.column);
        r.cache(4);
        int c = r.at(0);
        if (c == 0) {
            fetchStreamEnd();
        } else if (r.column == 0 && c == '%') {
            throw new Unsupported("directive");
        } else if (r.atDocumentIndicator()) {
            fetchDocumentIndicator(c == '-' ? Type.DOCUMENT_START : Type.DOCUMENT_END);
        } else if (c == '[' || c == '{') {
            saveSimpleKey();
            increaseFlowLevel();
            simpleKeyAllowed = true;
            fetchIndicator(c == '[' ? Type.FLOW_SEQUENCE_START : Type.FLOW_MAPPING_START);
        } else if (c == ']' || c == '}') {
            removeSimpleKey();
            decreaseFlowLevel();
            simpleKeyAllowed = false;
            fetchIndicator(c == ']' ? Type.FLOW_SEQUENCE_END : Type.FLOW_MAPPING_END);
        } else if (c == ',') {
            removeSimpleKey();
            simpleKeyAllowed = true;
            fetchIndicator(Type.FLOW_ENTRY);
        } else if (c == '-' && r.isBlankz(1)) {
            if (flowLevel == 0) {
                if (!simpleKeyAllowed) {
                    throw GoYamlError.scanner("block sequence entries are not allowed in this context", r.mark());
                }
                rollIndent(r.column, -1, Type.BLOCK_SEQUENCE_START, r.mark());
            }
            removeSimpleKey();
            simpleKeyAllowed = true;
            fetchIndicator(Type.BLOCK_ENTRY);
        } else if (c == '?' && (flowLevel > 0 || r.isBlankz(1))) {
            if (flowLevel == 0) {
                if (!simpleKeyAllowed) {
                    throw GoYamlError.scanner("mapping keys are not allowed in this context", r.mark());
                }
                rollIndent(r.column, -1, Type.BLOCK_MAPPING_START, r.mark());
            }
            removeSimpleKey();
            simpleKeyAllowed = flowLevel == 0;
            fetchIndicator(Type.KEY);
        } else if (c == ':' && (flowLevel > 0 || r.isBlankz(1))) {
            fetchValue();
        } else if (c == '*' || c == '&' || c == '!') {
            saveSimpleKey();
            simpleKeyAllowed = false;
            add(c == '!' ? scalars.tag() : scalars.anchor(c == '*' ? Type.ALIAS : Type.ANCHOR));
        } else if ((c == '|' || c == '>') && flowLevel == 0) {
            removeSimpleKey();
            scalars.blockScalarHeader();
            throw new Unsupported("block scalar");
        } else if (c == '\'' || c == '"') {
            saveSimpleKey();
            simpleKeyAllowed = false;
            add(scalars.flowScalar(c == '\''));
        } else if (startsPlain(c)) {
            saveSimpleKey();
            simpleKeyAllowed = false;
            GoYamlScalars.Plain plain = scalars.plain(indent, flowLevel);
            if (plain.leadingBlanks()) {
                simpleKeyAllowed = true;
            }
            add(plain.token());
        } else {
            throw GoYamlError.scanner("found character that cannot start any token", r.mark());
        }
    }

    private boolean startsPlain(int c) {
        return !(r.isBlankz(0) || "-?:,[]{}#&*!|>'\"%@`".indexOf(c) >= 0)
                || c == '-' && !r.isBlank(1)
                || flowLevel == 0 && (c == '?' || c == ':') && !r.isBlankz(1);
    }

    /** {@code yaml_parser_scan_to_next_token}. */
    private void scanToNextToken() {
        while (true) {
            r.cache(1);
            if (r.column == 0 && r.headIsBom()) {
                r.skip();
            }
            r.cache(1);
            while (r.at(0) == ' ' || (flowLevel > 0 || !simpleKeyAllowed) && r.at(0) == '\t') {
                r.skip();
                r.cache(1);
            }
            r.skipComment();
            if (!r.isBreak(0)) {
                return;
            }
            r.cache(2);
            r.skipLine();
            if (flowLevel == 0) {
                simpleKeyAllowed = true;
            }
        }
    }

    private void fetchStreamEnd() {
        if (r.column != 0) {
            r.column = 0;
            r.line++;
        }
        unrollIndent(-1);
        removeSimpleKey();
        simpleKeyAllowed = false;
        add(GoYamlToken.of(Type.STREAM_END, r.mark(), r.mark()));
    }

    private void fetchDocumentIndicator(Type type) {
        unrollIndent(-1);
        removeSimpleKey();
        simpleKeyAllowed = false;
        GoYamlError.Mark start = r.mark();
        r.skip();
        r.skip();
        r.skip();
        add(GoYamlToken.of(type, start, r.mark()));
    }

    private void fetchIndicator(Type type) {
        GoYamlError.Mark start = r.mark();
        r.skip();
        add(GoYamlToken.of(type, start, r.mark()));
    }

    /** {@code yaml_parser_fetch_value}. */
    private void fetchValue() {
        SimpleKey key = simpleKeys.get(simpleKeys.size() - 1);
        if (isValid(key)) {
            insert(key.tokenNumber - tokensParsed, GoYamlToken.of(Type.KEY, key.mark, key.mark));
            rollIndent(key.mark.column(), key.tokenNumber, Type.BLOCK_MAPPING_START, key.mark);
            key.possible = false;
            simpleKeysByToken.remove(key.tokenNumber);
            simpleKeyAllowed = false;
        } else {
            if (flowLevel == 0) {
                if (!simpleKeyAllowed) {
                    throw GoYamlError.scanner("mapping values are not allowed in this context", r.mark());
                }
                rollIndent(r.column, -1, Type.BLOCK_MAPPING_START, r.mark());
            }
            simpleKeyAllowed = flowLevel == 0;
        }
        fetchIndicator(Type.VALUE);
    }

    private void saveSimpleKey() {
        boolean required = flowLevel == 0 && indent == r.column;
        if (simpleKeyAllowed) {
            SimpleKey key = new SimpleKey();
            key.possible = true;
            key.required = required;
            key.tokenNumber = tokensParsed + (tokens.size() - tokensHead);
            key.mark = r.mark();
            removeSimpleKey();
            simpleKeys.set(simpleKeys.size() - 1, key);
            simpleKeysByToken.put(key.tokenNumber, simpleKeys.size() - 1);
        }
    }

    private void removeSimpleKey() {
        SimpleKey key = simpleKeys.get(simpleKeys.size() - 1);
        if (key.possible) {
            if (key.required) {
                throw GoYamlError.scanner("could not find expected ':'", r.mark());
            }
            key.possible = false;
            simpleKeysByToken.remove(key.tokenNumber);
        }
    }

    private void increaseFlowLevel() {
        SimpleKey key = new SimpleKey();
        key.tokenNumber = tokensParsed + (tokens.size() - tokensHead);
        key.mark = r.mark();
        simpleKeys.add(key);
        flowLevel++;
        if (flowLevel > MAX_FLOW_LEVEL) {
            throw GoYamlError.scanner("exceeded max depth of " + MAX_FLOW_LEVEL, r.mark());
        }
    }

    private void decreaseFlowLevel() {
        if (flowLevel > 0) {
            flowLevel--;
            SimpleKey last = simpleKeys.remove(simpleKeys.size() - 1);
            simpleKeysByToken.remove(last.tokenNumber);
        }
    }

    private void rollIndent(int column, int number, Type type, GoYamlError.Mark mark) {
        if (flowLevel > 0 || indent >= column) {
            return;
        }
        indents.add(indent);
        indent = column;
        if (indents.size() > 10_000) {
            throw GoYamlError.scanner("exceeded max depth of 10000", r.mark());
        }
        GoYamlToken token = GoYamlToken.of(type, mark, mark);
        if (number > -1) {
            insert(number - tokensParsed, token);
        } else {
            add(token);
        }
    }

    private void unrollIndent(int column) {
        if (flowLevel > 0) {
            return;
        }
        while (indent > column) {
            add(GoYamlToken.of(Type.BLOCK_END, r.mark(), r.mark()));
            indent = indents.remove(indents.size() - 1);
        }
    }

    /** Queues a token, dropping those the parser took once there are many (as {@code yaml_insert_token}). */
    private void add(GoYamlToken token) {
        if (tokensHead > 64) {
            tokens.subList(0, tokensHead).clear();
            tokensHead = 0;
        }
        tokens.add(token);
    }

    /** {@code yaml_insert_token} at {@code pos} past the queue's head. */
    private void insert(int pos, GoYamlToken token) {
        tokens.add(tokensHead + pos, token);
    }
}
