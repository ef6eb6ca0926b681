package dev.dra.sidecar.snapshot;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import java.util.function.Supplier;

/**
 * How every JSON body the API serves is encoded: compact, map keys sorted as Go writes them, and a trailing newline;
 * either now and held, or each time it is asked for.
 */
public final class BodyEncoding {

    private static final ObjectWriter WRITER = GoCompatibleJson.mapper().writer();

    private BodyEncoding() {}

    /** {@code body} encoded now and held, with its ETag. */
    public static Served.Available encode(Object body) {
        byte[] json = json(body);
        return new Served.Available(json, Served.Available.etagOf(json), null, null);
    }

    /** {@code body} encoded each time it is asked for; {@code body} must give an immutable object. */
    public static Served.Available onDemand(Supplier<?> body, String sourceVersions, String staleReason) {
        return Served.Available.onDemand(() -> json(body.get()), sourceVersions, staleReason);
    }

    private static byte[] json(Object body) {
        try {
            byte[] json = WRITER.writeValueAsBytes(body);
            byte[] withNewline = new byte[json.length + 1];
            System.arraycopy(json, 0, withNewline, 0, json.length);
            withNewline[json.length] = '\n';
            return withNewline;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("records always encode", e);
        }
    }
}
