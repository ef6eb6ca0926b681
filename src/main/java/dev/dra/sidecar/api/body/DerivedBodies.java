package dev.dra.sidecar.api.body;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import dev.dra.sidecar.snapshot.Served;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Encodes the answers the API derives from a snapshot's entries (an attribute across devices, the device list, the
 * environment file) the way the snapshot encodes its own: compact JSON with map keys sorted and a trailing newline,
 * and a strong ETag of 128 bits of SHA-256 of the bytes. The same snapshot always gives the same bytes, so
 * {@code If-None-Match} and long polls work on them as on every other answer.
 */
final class DerivedBodies {

    private static final ObjectWriter WRITER = GoCompatibleJson.mapper().writer();

    private DerivedBodies() {}

    /** {@code body} as JSON, with what {@code selection} is made of in its headers. */
    static Served.Available json(Object body, DeviceSelection selection) {
        try {
            byte[] json = WRITER.writeValueAsBytes(body);
            byte[] withNewline = new byte[json.length + 1];
            System.arraycopy(json, 0, withNewline, 0, json.length);
            withNewline[json.length] = '\n';
            return bytes(withNewline, selection);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("records always encode", e);
        }
    }

    /** {@code body} as text, with what {@code selection} is made of in its headers. */
    static Served.Available text(String body, DeviceSelection selection) {
        return bytes(body.getBytes(StandardCharsets.UTF_8), selection);
    }

    /** A JSON string literal of {@code value}, as the writer escapes it. */
    static String quoted(String value) {
        try {
            return WRITER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("strings always encode", e);
        }
    }

    private static Served.Available bytes(byte[] body, DeviceSelection selection) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(body);
            return new Served.Available(body, '"' + HexFormat.of().formatHex(digest, 0, 16) + '"',
                    selection.sourceVersions(), selection.staleReason(), selection.sources());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is in every JDK", e);
        }
    }
}
