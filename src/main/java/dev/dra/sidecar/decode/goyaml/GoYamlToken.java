package dev.dra.sidecar.decode.goyaml;

/**
 * A token of go-yaml v2's scanner ({@code yaml_token_t}): its type, marks, value (a scalar's text, an anchor's or
 * alias's name, a tag's handle), a tag's suffix, and whether a scalar is plain.
 */
record GoYamlToken(Type type, GoYamlError.Mark start, GoYamlError.Mark end, String value, String suffix, boolean plain) {

    enum Type {
        STREAM_START, STREAM_END, VERSION_DIRECTIVE, TAG_DIRECTIVE, DOCUMENT_START, DOCUMENT_END,
        BLOCK_SEQUENCE_START, BLOCK_MAPPING_START, BLOCK_END, FLOW_SEQUENCE_START, FLOW_SEQUENCE_END,
        FLOW_MAPPING_START, FLOW_MAPPING_END, BLOCK_ENTRY, FLOW_ENTRY, KEY, VALUE, ALIAS, ANCHOR, TAG, SCALAR
    }

    static GoYamlToken of(Type type, GoYamlError.Mark start, GoYamlError.Mark end) {
        return new GoYamlToken(type, start, end, null, null, false);
    }
}
