package dev.dra.sidecar.decode.goyaml;

import dev.dra.sidecar.decode.goyaml.GoYamlToken.Type;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * go-yaml v2's parser ({@code parserc.go} of {@code go.yaml.in/yaml/v2} v2.4.4) over {@link GoYamlTokens}: the
 * events of one implicit document whose root is a flow node, in the order {@code yaml_parser_parse} produces them
 * (so that each error comes where go-yaml meets it): stream and document start and end
 * ({@code yaml_parser_parse_document_end} peeks one token past the root and reads nothing more), nodes with their
 * properties ({@code yaml_parser_parse_node}: anchor, tag through the default handles {@code !} and {@code !!}),
 * flow sequences with their single-pair mappings and flow mappings
 * ({@code yaml_parser_parse_flow_sequence_entry*}, {@code yaml_parser_parse_flow_mapping_*}). A block collection
 * as the root, which a JSON value never starts, is {@link GoYamlTokens.Unsupported}.
 */
final class GoYamlEvents {

    enum Kind { STREAM_START, DOCUMENT_START, DOCUMENT_END, SEQUENCE_START, SEQUENCE_END, MAPPING_START, MAPPING_END,
        SCALAR, ALIAS }

    /** An event: a scalar's value, tag ("" if none) and whether it is implicit (plain, or tagged {@code !}). */
    record Event(Kind kind, GoYamlError.Mark start, String anchor, String tag, String value, boolean implicit) {}

    private enum State { STREAM_START, IMPLICIT_DOCUMENT_START, BLOCK_NODE, DOCUMENT_END, FLOW_SEQUENCE_FIRST_ENTRY,
        FLOW_SEQUENCE_ENTRY, FLOW_SEQUENCE_ENTRY_MAPPING_KEY, FLOW_SEQUENCE_ENTRY_MAPPING_VALUE,
        FLOW_SEQUENCE_ENTRY_MAPPING_END, FLOW_MAPPING_FIRST_KEY, FLOW_MAPPING_KEY, FLOW_MAPPING_VALUE,
        FLOW_MAPPING_EMPTY_VALUE, END }

    private static final String SECONDARY = "tag:yaml.org,2002:";

    private final GoYamlTokens tokens;
    private State state = State.STREAM_START;
    private final Deque<State> states = new ArrayDeque<>();
    private final Deque<GoYamlError.Mark> marks = new ArrayDeque<>();

    GoYamlEvents(GoYamlTokens tokens) {
        this.tokens = tokens;
    }

    /** {@code yaml_parser_state_machine}: the next event. */
    Event next() {
        return switch (state) {
            case STREAM_START -> streamStart();
            case IMPLICIT_DOCUMENT_START -> documentStart();
            case BLOCK_NODE -> node(true);
            case DOCUMENT_END -> documentEnd();
            case FLOW_SEQUENCE_FIRST_ENTRY -> sequenceEntry(true);
            case FLOW_SEQUENCE_ENTRY -> sequenceEntry(false);
            case FLOW_SEQUENCE_ENTRY_MAPPING_KEY -> pairKey();
            case FLOW_SEQUENCE_ENTRY_MAPPING_VALUE -> pairValue();
            case FLOW_SEQUENCE_ENTRY_MAPPING_END -> pairEnd();
            case FLOW_MAPPING_FIRST_KEY -> mappingKey(true);
            case FLOW_MAPPING_KEY -> mappingKey(false);
            case FLOW_MAPPING_VALUE -> mappingValue(false);
            case FLOW_MAPPING_EMPTY_VALUE -> mappingValue(true);
            case END -> throw new GoYamlTokens.Unsupported("past the document");
        };
    }

    private Event streamStart() {
        GoYamlToken token = tokens.peek();
        state = State.IMPLICIT_DOCUMENT_START;
        tokens.skip();
        return event(Kind.STREAM_START, token.start());
    }

    private Event documentStart() {
        GoYamlToken token = tokens.peek();
        Type t = token.type();
        if (t == Type.VERSION_DIRECTIVE || t == Type.TAG_DIRECTIVE || t == Type.DOCUMENT_START || t == Type.STREAM_END) {
            throw new GoYamlTokens.Unsupported("explicit document");
        }
        states.push(State.DOCUMENT_END);
        state = State.BLOCK_NODE;
        return event(Kind.DOCUMENT_START, token.start());
    }

    private Event documentEnd() {
        GoYamlToken token = tokens.peek();
        if (token.type() == Type.DOCUMENT_END) {
            tokens.skip();
        }
        state = State.END;
        return event(Kind.DOCUMENT_END, token.start());
    }

    /** {@code yaml_parser_parse_node} (never an indentless sequence here). */
    private Event node(boolean block) {
        GoYamlToken token = tokens.peek();
        if (token.type() == Type.ALIAS) {
            state = states.pop();
            tokens.skip();
            return new Event(Kind.ALIAS, token.start(), token.value(), "", "", false);
        }
        GoYamlError.Mark start = token.start();
        String anchor = null;
        GoYamlToken tagToken = null;
        if (token.type() == Type.ANCHOR) {
            anchor = token.value();
            tokens.skip();
            token = tokens.peek();
            if (token.type() == Type.TAG) {
                tagToken = token;
                tokens.skip();
                token = tokens.peek();
            }
        } else if (token.type() == Type.TAG) {
            tagToken = token;
            tokens.skip();
            token = tokens.peek();
            if (token.type() == Type.ANCHOR) {
                anchor = token.value();
                tokens.skip();
                token = tokens.peek();
            }
        }
        String tag = "";
        if (tagToken != null) {
            String handle = tagToken.value();
            if (handle.isEmpty()) {
                tag = tagToken.suffix();
            } else if (handle.equals("!") || handle.equals("!!")) {
                tag = (handle.equals("!") ? "!" : SECONDARY) + tagToken.suffix();
            }
            if (tag.isEmpty()) {
                throw GoYamlError.parser("found undefined tag handle", tagToken.start(), start);
            }
        }
        if (token.type() == Type.SCALAR) {
            boolean implicit = tag.isEmpty() && token.plain() || tag.equals("!");
            state = states.pop();
            tokens.skip();
            return new Event(Kind.SCALAR, start, anchor, tag, token.value(), implicit);
        }
        if (token.type() == Type.FLOW_SEQUENCE_START || token.type() == Type.FLOW_MAPPING_START) {
            boolean sequence = token.type() == Type.FLOW_SEQUENCE_START;
            state = sequence ? State.FLOW_SEQUENCE_FIRST_ENTRY : State.FLOW_MAPPING_FIRST_KEY;
            return new Event(sequence ? Kind.SEQUENCE_START : Kind.MAPPING_START, start, anchor, tag, "", tag.isEmpty());
        }
        if (block && (token.type() == Type.BLOCK_SEQUENCE_START || token.type() == Type.BLOCK_MAPPING_START)) {
            throw new GoYamlTokens.Unsupported("block collection");
        }
        if (anchor != null || !tag.isEmpty()) {
            state = states.pop();
            return new Event(Kind.SCALAR, start, anchor, tag, "", tag.isEmpty());
        }
        throw GoYamlError.parser("did not find expected node content", token.start(), start);
    }

    private Event sequenceEntry(boolean first) {
        GoYamlToken token = entry(first, Type.FLOW_SEQUENCE_END, "did not find expected ',' or ']'");
        if (token.type() == Type.KEY) {
            state = State.FLOW_SEQUENCE_ENTRY_MAPPING_KEY;
            tokens.skip();
            return new Event(Kind.MAPPING_START, token.start(), null, "", "", true);
        } else if (token.type() != Type.FLOW_SEQUENCE_END) {
            states.push(State.FLOW_SEQUENCE_ENTRY);
            return node(false);
        }
        return end(Kind.SEQUENCE_END, token);
    }

    private Event pairKey() {
        GoYamlToken token = tokens.peek();
        if (token.type() != Type.VALUE && token.type() != Type.FLOW_ENTRY && token.type() != Type.FLOW_SEQUENCE_END) {
            states.push(State.FLOW_SEQUENCE_ENTRY_MAPPING_VALUE);
            return node(false);
        }
        GoYamlError.Mark mark = token.end();
        tokens.skip();
        state = State.FLOW_SEQUENCE_ENTRY_MAPPING_VALUE;
        return empty(mark);
    }

    private Event pairValue() {
        GoYamlToken token = tokens.peek();
        if (token.type() == Type.VALUE) {
            tokens.skip();
            GoYamlToken next = tokens.peek();
            if (next.type() != Type.FLOW_ENTRY && next.type() != Type.FLOW_SEQUENCE_END) {
                states.push(State.FLOW_SEQUENCE_ENTRY_MAPPING_END);
                return node(false);
            }
        }
        state = State.FLOW_SEQUENCE_ENTRY_MAPPING_END;
        return empty(token.start());
    }

    private Event pairEnd() {
        GoYamlToken token = tokens.peek();
        state = State.FLOW_SEQUENCE_ENTRY;
        return event(Kind.MAPPING_END, token.start());
    }

    private Event mappingKey(boolean first) {
        GoYamlToken token = entry(first, Type.FLOW_MAPPING_END, "did not find expected ',' or '}'");
        if (token.type() == Type.KEY) {
            tokens.skip();
            token = tokens.peek();
            if (token.type() != Type.VALUE && token.type() != Type.FLOW_ENTRY
                    && token.type() != Type.FLOW_MAPPING_END) {
                states.push(State.FLOW_MAPPING_VALUE);
                return node(false);
            }
            state = State.FLOW_MAPPING_VALUE;
            return empty(token.start());
        } else if (token.type() != Type.FLOW_MAPPING_END) {
            states.push(State.FLOW_MAPPING_EMPTY_VALUE);
            return node(false);
        }
        return end(Kind.MAPPING_END, token);
    }

    /**
     * The token that starts a flow collection's next entry, as {@code yaml_parser_parse_flow_sequence_entry} and
     * {@code yaml_parser_parse_flow_mapping_key} both find it: for the first, past the opening bracket (whose mark
     * an error names); for any other, past the {@code ,} that must come first unless the collection ends there.
     */
    private GoYamlToken entry(boolean first, Type close, String missingComma) {
        if (first) {
            marks.push(tokens.peek().start());
            tokens.skip();
        }
        GoYamlToken token = tokens.peek();
        if (!first && token.type() != close) {
            if (token.type() != Type.FLOW_ENTRY) {
                throw GoYamlError.parser(missingComma, token.start(), marks.pop());
            }
            tokens.skip();
            token = tokens.peek();
        }
        return token;
    }

    /** The closing bracket {@code close}: the collection's end event, back to the enclosing state. */
    private Event end(Kind kind, GoYamlToken close) {
        state = states.pop();
        marks.pop();
        tokens.skip();
        return event(kind, close.start());
    }

    private Event mappingValue(boolean empty) {
        GoYamlToken token = tokens.peek();
        if (empty) {
            state = State.FLOW_MAPPING_KEY;
            return empty(token.start());
        }
        if (token.type() == Type.VALUE) {
            tokens.skip();
            token = tokens.peek();
            if (token.type() != Type.FLOW_ENTRY && token.type() != Type.FLOW_MAPPING_END) {
                states.push(State.FLOW_MAPPING_KEY);
                return node(false);
            }
        }
        state = State.FLOW_MAPPING_KEY;
        return empty(token.start());
    }

    /** {@code yaml_parser_process_empty_scalar}: a plain, empty, implicit scalar (null). */
    private static Event empty(GoYamlError.Mark mark) {
        return new Event(Kind.SCALAR, mark, null, "", "", true);
    }

    private static Event event(Kind kind, GoYamlError.Mark mark) {
        return new Event(kind, mark, null, "", "", false);
    }
}
