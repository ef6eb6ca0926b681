package dev.dra.sidecar.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * Kubernetes {@code metav1.Time}: an RFC 3339 string, re-encoded in UTC with second precision. Go rejects
 * anything else (a number, a malformed date), so we do too; that keeps a bad timestamp an invalid object.
 */
public final class KubernetesTime {

    private static final DateTimeFormatter ENCODED = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'");

    private KubernetesTime() {}

    /** The Go encoding of an RFC 3339 timestamp: UTC, whole seconds. */
    public static String normalize(String rfc3339) {
        OffsetDateTime t = OffsetDateTime.parse(rfc3339, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        return t.withOffsetSameInstant(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).format(ENCODED);
    }

    public static final class Deserializer extends StdDeserializer<String> {
        public Deserializer() {
            super(String.class);
        }

        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_STRING) {
                return (String) ctxt.handleUnexpectedToken(String.class, p);
            }
            try {
                return normalize(p.getText());
            } catch (DateTimeParseException e) {
                return (String) ctxt.handleWeirdStringValue(String.class, p.getText(), "not an RFC 3339 time");
            }
        }
    }
}
