package dev.dra.sidecar.api.body;

import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import dev.dra.sidecar.model.DeviceAttribute;
import dev.dra.sidecar.snapshot.AttributeValue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * An attribute value of the snapshot, read back from its encoded JSON (the snapshot's own bytes, never a file) into
 * the forms the derived answers need: its text items, as the per-device {@code text/plain} answer lists them, and
 * its typed JSON for embedding in a larger body.
 */
record AttributeText(List<String> lines) {

    private static final ObjectReader READER = GoCompatibleJson.mapper().readerFor(DeviceAttribute.class);

    static AttributeText of(AttributeValue value) {
        try {
            DeviceAttribute typed = READER.readValue(value.json().body());
            return new AttributeText(typed.textLines());
        } catch (IOException e) {
            throw new IllegalStateException("the snapshot's attribute bytes always decode", e);
        }
    }

    /** The typed value ({@code {"string":"x"}}) for a body that embeds it as it is. */
    static RawValue json(AttributeValue value) {
        byte[] body = value.json().body();
        int end = body.length > 0 && body[body.length - 1] == '\n' ? body.length - 1 : body.length;
        return new RawValue(new String(body, 0, end, StandardCharsets.UTF_8));
    }
}
