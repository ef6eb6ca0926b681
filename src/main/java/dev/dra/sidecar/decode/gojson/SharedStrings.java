package dev.dra.sidecar.decode.gojson;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import java.io.IOException;

/**
 * Decodes a JSON string as Jackson does, and gives an equal short string decoded before in its place, so that the
 * values many files repeat (driver, pool, namespace, attribute values such as a model or a version) are held once
 * instead of once per file. A lossy cache of {@link #SLOTS} slots chosen by hash: a string found in its slot is
 * shared, any other takes the slot. What it holds is bounded (the slots and at most {@link #SLOTS} strings of at most
 * {@link #MAX_LENGTH} chars), it never blocks, and a miss only costs the sharing. Racing threads may each keep their
 * own copy: strings are immutable, so any copy is right.
 */
public final class SharedStrings extends StringDeserializer {

    private static final long serialVersionUID = 1L;

    /** Slots of the cache; a power of two. */
    static final int SLOTS = 4096;

    /** Longer strings are kept as decoded: they are rarely repeated, and would take the cache's memory. */
    static final int MAX_LENGTH = 64;

    private static final String[] CACHE = new String[SLOTS];

    @Override
    public String deserialize(JsonParser parser, DeserializationContext context) throws IOException {
        return shared(super.deserialize(parser, context));
    }

    /** {@code value}, or an equal string shared before. */
    public static String shared(String value) {
        if (value == null || value.length() > MAX_LENGTH) {
            return value;
        }
        int slot = value.hashCode() & (SLOTS - 1);
        String cached = CACHE[slot];
        if (value.equals(cached)) {
            return cached;
        }
        CACHE[slot] = value;
        return value;
    }
}
