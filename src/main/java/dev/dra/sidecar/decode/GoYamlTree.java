package dev.dra.sidecar.decode;

import dev.dra.sidecar.decode.GoYamlEvents.Event;
import dev.dra.sidecar.decode.GoYamlEvents.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code yaml.Unmarshal} into an {@code interface{}} and {@code sigs.k8s.io/yaml}'s conversion to JSON make
 * of the events of {@link GoYamlEvents}, as far as their errors go: the node tree of {@code decode.go}'s parser
 * (an alias of an anchor not yet seen: {@code unknown anchor 'a' referenced}), then its decoder (an alias inside
 * its own anchor: {@code anchor 'a' value contains itself}; a plain {@code <<} key whose value is no mapping:
 * {@code map merge requires map or sequence of maps as the value}; nulls are left out as it leaves them). What
 * this does not model is {@link GoYamlTokens.Unsupported}: a scalar with a tag go-yaml resolves
 * ({@code !!int}, {@code !!binary}...), a key that is a collection, a null or uint64 key, a float value that JSON
 * cannot hold ({@code .inf}, {@code .nan}).
 */
final class GoYamlTree {

    private static final String NULL_TAG = "tag:yaml.org,2002:null";
    private static final String MERGE_TAG = "tag:yaml.org,2002:merge";

    /** A node of the tree; compared by identity (an alias node is marked while its anchor is decoded). */
    private static final class Node {
        final Kind kind;
        final String tag;
        final String value;
        final boolean implicit;
        final List<Node> children;
        final Node alias;

        Node(Kind kind, String tag, String value, boolean implicit, List<Node> children, Node alias) {
            this.kind = kind;
            this.tag = tag;
            this.value = value;
            this.implicit = implicit;
            this.children = children;
            this.alias = alias;
        }
    }

    private final GoYamlEvents events;
    private Event peeked;
    private final Map<String, Node> anchors = new HashMap<>();
    private final Set<Node> visiting = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    private GoYamlTree(GoYamlEvents events) {
        this.events = events;
    }

    /** Reads the document and decodes it: throws {@link GoYamlError} where go-yaml fails. */
    static void decode(GoYamlEvents events) {
        GoYamlTree tree = new GoYamlTree(events);
        tree.expect(Kind.STREAM_START);
        tree.expect(Kind.DOCUMENT_START);
        Node root = tree.parse();
        tree.expect(Kind.DOCUMENT_END);
        GoYamlJson.check(tree.unmarshal(root));
    }

    private Event peek() {
        if (peeked == null) {
            peeked = events.next();
        }
        return peeked;
    }

    private void expect(Kind kind) {
        if (peek().kind() != kind) {
            throw new GoYamlTokens.Unsupported("expected " + kind + " event but got " + peeked.kind());
        }
        peeked = null;
    }

    private Node parse() {
        Event e = peek();
        switch (e.kind()) {
            case ALIAS -> {
                Node target = anchors.get(e.anchor());
                if (target == null) {
                    throw GoYamlError.decoder("unknown anchor '" + e.anchor() + "' referenced");
                }
                peeked = null;
                return new Node(Kind.ALIAS, "", e.anchor(), false, List.of(), target);
            }
            case SCALAR -> {
                Node n = new Node(Kind.SCALAR, e.tag(), e.value(), e.implicit(), List.of(), null);
                anchor(e, n);
                peeked = null;
                return n;
            }
            case SEQUENCE_START, MAPPING_START -> {
                Node n = new Node(e.kind(), e.tag(), "", e.implicit(), new ArrayList<>(), null);
                anchor(e, n);
                peeked = null;
                Kind end = e.kind() == Kind.SEQUENCE_START ? Kind.SEQUENCE_END : Kind.MAPPING_END;
                while (peek().kind() != end) {
                    n.children.add(parse());
                    if (end == Kind.MAPPING_END) {
                        n.children.add(parse());
                    }
                }
                peeked = null;
                return n;
            }
            default -> throw new GoYamlTokens.Unsupported("node " + e.kind());
        }
    }

    private void anchor(Event e, Node n) {
        if (e.anchor() != null) {
            anchors.put(e.anchor(), n);
        }
    }

    /** The Go value left out of a collection ({@code decoder.prepare}'s nulls). */
    private static final Object ABSENT = new Object();

    /** {@code decoder.unmarshal} into an {@code interface{}}: the value, or {@link #ABSENT} for a null. */
    private Object unmarshal(Node n) {
        if (n.kind == Kind.ALIAS) {
            if (!visiting.add(n)) {
                throw GoYamlError.decoder("anchor '" + n.value + "' value contains itself");
            }
            Object value = unmarshal(n.alias);
            visiting.remove(n);
            return value;
        }
        if (n.tag.equals(NULL_TAG) || n.kind == Kind.SCALAR && n.tag.isEmpty()
                && (n.value.equals("null") || n.value.equals("~") || n.value.isEmpty() && n.implicit)) {
            return ABSENT;
        }
        return switch (n.kind) {
            case SCALAR -> GoYamlResolve.scalar(n.tag, n.value, n.implicit);
            case SEQUENCE_START -> {
                List<Object> items = new ArrayList<>();
                for (Node child : n.children) {
                    Object item = unmarshal(child);
                    if (item != ABSENT) {
                        items.add(item);
                    }
                }
                yield items;
            }
            default -> mapping(n, new java.util.LinkedHashMap<>());
        };
    }

    /** {@code decoder.mapping} into {@code out}: a later key replaces an earlier one, a null value is left out. */
    private Map<Object, Object> mapping(Node n, Map<Object, Object> out) {
        for (int i = 0; i < n.children.size(); i += 2) {
            Node key = n.children.get(i);
            if (key.kind == Kind.SCALAR && key.value.equals("<<") && (key.implicit || key.tag.equals(MERGE_TAG))) {
                merge(n.children.get(i + 1), out);
                continue;
            }
            Object k = unmarshal(key);
            if (k != ABSENT) {
                if (k instanceof List || k instanceof Map) {
                    throw new GoYamlTokens.Unsupported("invalid map key");
                }
                Object value = unmarshal(n.children.get(i + 1));
                if (value != ABSENT) {
                    out.put(k, value);
                }
            }
        }
        return out;
    }

    /** {@code decoder.merge}: a mapping, an alias of one, or a sequence of them (the earlier ones win). */
    private void merge(Node n, Map<Object, Object> out) {
        if (n.kind == Kind.SEQUENCE_START) {
            for (int i = n.children.size() - 1; i >= 0; i--) {
                mergeOne(n.children.get(i), out);
            }
        } else {
            mergeOne(n, out);
        }
    }

    private void mergeOne(Node n, Map<Object, Object> out) {
        Node target = n.kind == Kind.ALIAS ? n.alias : n;
        if (target.kind != Kind.MAPPING_START) {
            throw GoYamlError.decoder("map merge requires map or sequence of maps as the value");
        }
        if (n.kind == Kind.ALIAS) {
            if (!visiting.add(n)) {
                throw GoYamlError.decoder("anchor '" + n.value + "' value contains itself");
            }
            mapping(target, out);
            visiting.remove(n);
        } else if (!target.tag.equals(NULL_TAG)) {
            mapping(target, out);
        }
    }
}
