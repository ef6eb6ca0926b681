package dev.dra.sidecar.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/** Shared helpers: the fixtures directory, UTF-8 streams, and assertions on decode outcomes. */
final class TestStreams {

    static final String V1BETA1 = "metadata.resource.k8s.io/v1beta1";
    static final String V1ALPHA1 = "metadata.resource.k8s.io/v1alpha1";
    /** The start of a known-version object, to be completed with fields and a closing brace. */
    static final String ALPHA = "{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"" + V1ALPHA1 + "\"";
    static final String BETA = "{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"" + V1BETA1 + "\"";
    /** A complete object of a version no reader knows. */
    static final String UNKNOWN = "{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"metadata.resource.k8s.io/v1000\"}";

    private TestStreams() {}

    static Path fixtures() {
        try {
            return Path.of(TestStreams.class.getResource("/fixtures").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The bytes of {@code parts} one after the other: each a {@code String} (as UTF-8) or a {@code byte[]}. */
    static byte[] concat(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            out.writeBytes(bytes(part));
        }
        return out.toByteArray();
    }

    /** A stream given as a {@code String} (as UTF-8) or as {@code byte[]}. */
    static byte[] bytes(Object stream) {
        return stream instanceof String s ? utf8(s) : (byte[]) stream;
    }

    static DecodedMetadata decode(String stream) {
        try {
            return MetadataStreamDecoder.decode(utf8(stream), "test.json");
        } catch (MetadataDecodeException e) {
            throw new AssertionError("expected to decode, failed with " + e.code().code() + ": " + e.getMessage(), e);
        }
    }

    static MetadataDecodeException failure(byte[] stream) {
        return assertThrows(MetadataDecodeException.class, () -> MetadataStreamDecoder.decode(stream, "test.json"));
    }

    /** Asserts the stream fails with {@code code} and a message containing each of {@code parts} in order. */
    static MetadataDecodeException assertFails(String stream, FailureCode code, String... parts) {
        return assertFails(utf8(stream), code, parts);
    }

    static MetadataDecodeException assertFails(byte[] stream, FailureCode code, String... parts) {
        MetadataDecodeException e = failure(stream);
        assertEquals(code, e.code(), () -> "code of failure: " + e.getMessage());
        assertContainsInOrder(e.getMessage(), parts);
        return e;
    }

    /** JSON tree equality where numbers compare by value ({@code 2} as int equals {@code 2} as long). */
    static void assertJsonEquals(JsonNode expected, JsonNode actual) {
        Comparator<JsonNode> byValue = (a, b) -> {
            if (a.isNumber() && b.isNumber()) {
                return a.decimalValue().compareTo(b.decimalValue());
            }
            return a.equals(b) ? 0 : 1;
        };
        assertTrue(expected != null && expected.equals(byValue, actual),
                () -> "JSON differs.\nexpected: " + expected + "\nactual:   " + actual);
    }

    /** The path of the first difference between two JSON trees, with both values; empty if equal. */
    static String firstDifference(JsonNode a, JsonNode b, String path) {
        if (a.equals(b)) {
            return "";
        }
        if (a.isObject() && b.isObject()) {
            java.util.Set<String> names = new java.util.TreeSet<>();
            a.fieldNames().forEachRemaining(names::add);
            b.fieldNames().forEachRemaining(names::add);
            for (String n : names) {
                if (!a.has(n) || !b.has(n)) {
                    return path + "." + n + ": " + a.get(n) + " vs " + b.get(n);
                }
                String d = firstDifference(a.get(n), b.get(n), path + "." + n);
                if (!d.isEmpty()) {
                    return d;
                }
            }
        }
        if (a.isArray() && b.isArray() && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) {
                String d = firstDifference(a.get(i), b.get(i), path + "[" + i + "]");
                if (!d.isEmpty()) {
                    return d;
                }
            }
        }
        return path + ": " + a + " (" + a.getNodeType() + ") vs " + b + " (" + b.getNodeType() + ")";
    }

    static void assertContainsInOrder(String message, String... parts) {
        int from = 0;
        for (String part : parts) {
            int at = message.indexOf(part, from);
            assertTrue(at >= 0, () -> "expected '" + part + "' (in order) in: " + message);
            from = at + part.length();
        }
    }
}
