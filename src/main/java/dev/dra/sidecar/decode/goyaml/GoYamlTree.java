package dev.dra.sidecar.decode.goyaml;

import dev.dra.sidecar.decode.goyaml.GoYamlEvents.Event;
import dev.dra.sidecar.decode.goyaml.GoYamlEvents.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code yaml.Unmarshal} into an {@code interface{}} makes of the events of {@link GoYamlEvents}: the node
 * tree of {@code decode.go}'s parser (an alias of an anchor not yet seen: {@code unknown anchor 'a' referenced}),
 * then the value its decoder builds (an alias inside its own anchor: {@code anchor 'a' value contains itself};
 * too many aliases: {@code document contains excessive aliasing}; a plain {@code <<} key whose value is no
 * mapping: {@code map merge requires map or sequence of maps as the value}; scalars as {@link GoYamlResolve}
 * resolves them), which {@link GoYamlJson} then converts as {@code sigs.k8s.io/yaml} does. A key that is a
 * collection ({@code invalid map key}, quoted with {@code %#v}) is {@link GoYamlTokens.Unsupported}.
 */
final class GoYamlTree {

    private static final String MERGE_TAG = GoYamlResolve.PREFIX + "merge";

    /**
     * A node of the tree: a scalar, a collection with its children, or an alias of its anchor's node. Held by
     * identity where it counts (an alias node is marked while its anchor is decoded, in {@link #visiting}).
     */
    private record Node(Kind kind, String tag, String value, boolean implicit, List<Node> children, Node alias) {}

    /** How deep a tree this thread decodes; a deeper one is decoded on a thread of {@link #DEEP_STACK} bytes. */
    private static final int SHALLOW = 1_000;
    private static final long DEEP_STACK = 256L << 20;

    private final GoYamlEvents events;
    private Event peeked;
    private final Map<String, Node> anchors = new HashMap<>();
    private int depth;
    private int decodeCount;
    private int aliasCount;
    private int aliasDepth;
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
        if (tree.depth <= SHALLOW) {
            GoYamlJson.check(tree.unmarshal(root, null));
            return;
        }
        // decoding recurses as deep as the tree (10,000 flow levels and their aliases): a thread with room for it
        RuntimeException[] failure = new RuntimeException[1];
        Thread deep = new Thread(null, () -> {
            try {
                GoYamlJson.check(tree.unmarshal(root, null));
            } catch (RuntimeException | StackOverflowError e) {
                failure[0] = e instanceof RuntimeException r ? r : new GoYamlTokens.Unsupported("deeper than the stack");
            }
        }, "go-yaml-decode", DEEP_STACK);
        deep.start();
        try {
            deep.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GoYamlTokens.Unsupported("interrupted");
        }
        if (failure[0] != null) {
            throw failure[0];
        }
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

    /** {@code parser.parse} of one node and what it holds, with a stack for the open collections. */
    private Node parse() {
        java.util.Deque<Node> open = new java.util.ArrayDeque<>();
        while (true) {
            Event e = peek();
            peeked = null;
            Node done;
            switch (e.kind()) {
                case ALIAS -> {
                    Node target = anchors.get(e.anchor());
                    if (target == null) {
                        throw GoYamlError.decoder("unknown anchor '" + e.anchor() + "' referenced");
                    }
                    done = new Node(Kind.ALIAS, "", e.anchor(), false, List.of(), target);
                }
                case SCALAR -> done = anchor(e, new Node(Kind.SCALAR, e.tag(), e.value(), e.implicit(), List.of(), null));
                case SEQUENCE_START, MAPPING_START -> {
                    open.push(anchor(e, new Node(e.kind(), e.tag(), "", e.implicit(), new ArrayList<>(), null)));
                    depth = Math.max(depth, open.size());
                    continue;
                }
                case SEQUENCE_END, MAPPING_END -> done = open.pop();
                default -> throw new GoYamlTokens.Unsupported("node " + e.kind());
            }
            if (open.isEmpty()) {
                return done;
            }
            open.peek().children().add(done);
        }
    }

    private Node anchor(Event e, Node n) {
        if (e.anchor() != null) {
            anchors.put(e.anchor(), n);
        }
        return n;
    }

    /**
     * {@code decoder.unmarshal} into an {@code interface{}} (or, for a merge, into the map {@code into}): the
     * value ({@link GoYamlResolve}'s for a scalar; a null is kept, as {@link GoYamlResolve#NIL}). Go counts each call, and those under an alias, and gives up when
     * aliases make too large a share of a large document ({@code allowedAliasRatio}).
     */
    private Object unmarshal(Node n, Map<Object, Object> into) {
        decodeCount++;
        if (aliasDepth > 0) {
            aliasCount++;
        }
        if (aliasCount > 100 && decodeCount > 1000 && (double) aliasCount / decodeCount > allowedAliasRatio()) {
            throw GoYamlError.decoder("document contains excessive aliasing");
        }
        if (n.kind() == Kind.ALIAS) {
            if (!visiting.add(n)) {
                throw GoYamlError.decoder("anchor '" + n.value() + "' value contains itself");
            }
            aliasDepth++;
            Object value = unmarshal(n.alias(), into);
            aliasDepth--;
            visiting.remove(n);
            return value;
        }
        return switch (n.kind()) {
            case SCALAR -> GoYamlResolve.scalar(n.tag(), n.value(), n.implicit());
            case SEQUENCE_START -> {
                List<Object> items = new ArrayList<>();
                for (Node child : n.children()) {
                    items.add(unmarshal(child, null));
                }
                yield items;
            }
            default -> mapping(n, into != null ? into : new java.util.LinkedHashMap<>());
        };
    }

    private double allowedAliasRatio() {
        return decodeCount <= 400_000 ? 0.99 : decodeCount >= 4_000_000 ? 0.10
                : 0.99 - 0.89 * ((decodeCount - 400_000) / 3_600_000.0);
    }

    /** {@code decoder.mapping} into {@code out}: a later key replaces an earlier one. */
    private Map<Object, Object> mapping(Node n, Map<Object, Object> out) {
        for (int i = 0; i < n.children().size(); i += 2) {
            Node key = n.children().get(i);
            boolean merge = key.kind() == Kind.SCALAR && key.value().equals("<<")
                    && (key.implicit() || key.tag().equals(MERGE_TAG));
            if (merge) {
                merge(n.children().get(i + 1), out);
                continue;
            }
            Object k = unmarshal(key, null);
            if (k instanceof List || k instanceof Map) {
                throw new GoYamlTokens.Unsupported("invalid map key");
            }
            out.put(k, unmarshal(n.children().get(i + 1), null));
        }
        return out;
    }

    /** {@code decoder.merge}: a mapping, an alias of one, or a sequence of them (the earlier ones win). */
    private void merge(Node n, Map<Object, Object> out) {
        if (n.kind() == Kind.SEQUENCE_START) {
            for (int i = n.children().size() - 1; i >= 0; i--) {
                mergeOne(n.children().get(i), out);
            }
        } else {
            mergeOne(n, out);
        }
    }

    private void mergeOne(Node n, Map<Object, Object> out) {
        Node target = n.kind() == Kind.ALIAS ? n.alias() : n;
        if (target.kind() != Kind.MAPPING_START) {
            throw GoYamlError.decoder("map merge requires map or sequence of maps as the value");
        }
        unmarshal(n, out);
    }
}
