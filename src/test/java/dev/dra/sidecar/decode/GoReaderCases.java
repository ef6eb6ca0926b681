package dev.dra.sidecar.decode;

import static dev.dra.sidecar.decode.TestStreams.ALPHA;
import static dev.dra.sidecar.decode.TestStreams.bytes;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import dev.dra.sidecar.model.Device;
import dev.dra.sidecar.model.DeviceAttribute;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;

/**
 * The table of {@code Decoder*RulesTest}: a named case is a stream and what Go's reader does with it
 * ({@code encoding/json} under apimachinery's serializer and {@code devicemetadata.DecodeMetadataFromStream}), and
 * the streams and Go's error wording the cases are written with. A failure's detail is the Go reader's error text
 * after the file's path.
 */
final class GoReaderCases {

    /** One row of the table: a stream and what Go's reader does with it. */
    record Case(String name, byte[] stream, Consumer<byte[]> expectation) {}

    /** The cases that pin down one Go rule, named by it. */
    record Group(String rule, List<Case> cases) {}

    private GoReaderCases() {}

    static Case decodes(String name, Object stream, Consumer<DecodedMetadata> check) {
        return new Case(name, bytes(stream), s -> check.accept(decode(s)));
    }

    static Case fails(String name, Object stream, FailureCode code, String... detailInOrder) {
        return new Case(name, bytes(stream), s -> TestStreams.assertFails(s, code, detailInOrder));
    }

    static Group group(String rule, List<Case> cases) {
        return new Group(rule, cases);
    }

    /** One container of tests per group, named by the Go rule its cases pin down, in the order given. */
    static Stream<DynamicNode> tests(Group... groups) {
        return Stream.of(groups).map(g -> DynamicContainer.dynamicContainer(g.rule(),
                g.cases().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> c.expectation().accept(c.stream())))));
    }

    /** A v1alpha1 stream whose one device has the attribute {@code a} = {@code attributeJson}. */
    static String withAttribute(String attributeJson) {
        return ALPHA + ",\"requests\":[{\"name\":\"r\",\"devices\":[{\"driver\":\"d\",\"pool\":\"p\",\"name\":\"n\","
                + "\"attributes\":{\"a\":" + attributeJson + "}}]}]}";
    }

    static String withGeneration(String generationJson) {
        return ALPHA + ",\"metadata\":{\"name\":\"c\",\"generation\":" + generationJson + "}}";
    }

    static String withPodClaimName(String json) {
        return ALPHA + ",\"podClaimName\":" + json + "}";
    }

    static String withCreation(String json) {
        return ALPHA + ",\"metadata\":{\"creationTimestamp\":" + json + "}}";
    }

    static Device device(DecodedMetadata d) {
        return d.object().requests().get(0).devices().get(0);
    }

    static DeviceAttribute attribute(DecodedMetadata d) {
        return device(d).attributes().get("a");
    }

    /** How Go's UnmarshalTypeError names a JSON value that is not a number. */
    static String goValue(String json) {
        return switch (json.charAt(0)) {
            case '"' -> "string";
            case '[' -> "array";
            case '{' -> "object";
            case 't', 'f' -> "bool";
            default -> "number";
        };
    }

    /** Go's time.quote for the printable ASCII values above. */
    static String goQuote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            if (b < ' ') { // control bytes and, as Java bytes are signed, every byte of a non-ASCII character
                out.append(String.format("\\x%02x", b & 0xFF));
            } else {
                out.append(b == '"' || b == '\\' ? "\\" : "").append((char) b);
            }
        }
        return out.append('"').toString();
    }

    static DecodedMetadata decode(byte[] stream) {
        try {
            return MetadataStreamDecoder.decode(stream, "test.json");
        } catch (MetadataDecodeException e) {
            throw new AssertionError("expected to decode, failed with " + e.code().code() + ": " + e.getMessage(), e);
        }
    }

    static String encode(Object value) {
        try {
            return GoCompatibleJson.mapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] raw(int[] values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    static String visible(String s) {
        String shown = s.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t");
        return shown.isEmpty() ? "(empty)" : shown.length() > 60 ? shown.substring(0, 60) + "..." : shown;
    }

    static String hex(String s) {
        return String.format("%04X", (int) s.charAt(0));
    }
}
