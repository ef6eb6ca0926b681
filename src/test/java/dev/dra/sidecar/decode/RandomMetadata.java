package dev.dra.sidecar.decode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import dev.dra.sidecar.model.Device;
import dev.dra.sidecar.model.DeviceAttribute;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.model.DeviceMetadataRequest;
import dev.dra.sidecar.model.ManagedFieldsEntry;
import dev.dra.sidecar.model.NetworkDeviceData;
import dev.dra.sidecar.model.ObjectMeta;
import dev.dra.sidecar.model.RawJson;
import dev.dra.sidecar.model.OwnerReference;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Seeded generators of valid {@code DeviceMetadata} objects and of the streams a writer could produce for
 * them. Everything is drawn from one {@link Random}, so a seed reproduces a case exactly.
 */
final class RandomMetadata {

    static final List<String> KNOWN = List.of(DeviceMetadata.V1BETA1, DeviceMetadata.V1ALPHA1);
    /** Group/versions that Go's scheme has never seen (not v1, not our __internal). */
    static final List<String> UNKNOWN = List.of("metadata.resource.k8s.io/v1000", "metadata.resource.k8s.io/v2",
            "metadata.resource.k8s.io/v1", "example.com/v1alpha1", "v2", "metadata.k8s.io/v99");
    private static final long[] SPECIAL_LONGS = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1,
        Long.MIN_VALUE + 1, (1L << 53) + 1, -(1L << 53) - 1, 1L << 53, Integer.MAX_VALUE + 1L, Integer.MIN_VALUE - 1L};
    /** Characters that stress an encoder: escapes, Go's HTML escapes, line separators, BOM, supplementary. */
    private static final String[] SPICE = {"\"", "\\", "/", "<", ">", "&", "\u0000", "\u001f", "\n", "\t", "\u007f",
        "\u2028", "\u2029", "\ufeff", "\ufffd", "\u00e9", "\u4e2d", "\uD83D\uDE00", "\uDBFF\uDFFF", "\uD800\uDC00", " "};

    private static final ObjectMapper JSON = GoCompatibleJson.mapper();

    final Random random;

    RandomMetadata(Random random) {
        this.random = random;
    }

    boolean chance(int percent) {
        return random.nextInt(100) < percent;
    }

    <T> T maybe(Supplier<T> value) {
        return chance(60) ? value.get() : null;
    }

    <T> T pick(List<T> items) {
        return items.get(random.nextInt(items.size()));
    }

    long anyLong() {
        return switch (random.nextInt(3)) {
            case 0 -> SPECIAL_LONGS[random.nextInt(SPECIAL_LONGS.length)];
            case 1 -> random.nextInt(2000) - 1000;
            default -> random.nextLong();
        };
    }

    long nonNegativeLong() {
        long v = anyLong();
        return v == Long.MIN_VALUE ? 0 : Math.abs(v);
    }

    /** Any string without lone surrogates (those decode to U+FFFD, by design, and do not round-trip). */
    String unicode(int maxLength) {
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(maxLength + 1);
        for (int i = 0; i < n; i++) {
            switch (random.nextInt(4)) {
                case 0 -> sb.append(SPICE[random.nextInt(SPICE.length)]);
                case 1 -> sb.appendCodePoint(0x20 + random.nextInt(0x5F));
                case 2 -> {
                    int cp;
                    do {
                        cp = random.nextInt(0x110000);
                    } while (cp >= 0xD800 && cp <= 0xDFFF);
                    sb.appendCodePoint(cp);
                }
                default -> sb.append((char) ('a' + random.nextInt(26)));
            }
        }
        return sb.toString();
    }

    /** {@link #unicode} cut to at most {@code maxBytes} UTF-8 bytes, at a code point boundary. */
    String unicodeBytes(int maxLength, int maxBytes) {
        String s = unicode(maxLength);
        while (s.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
            s = s.substring(0, s.offsetByCodePoints(0, s.codePointCount(0, s.length()) - 1));
        }
        return s;
    }

    String label() {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder sb = new StringBuilder();
        int n = 1 + random.nextInt(20);
        for (int i = 0; i < n; i++) {
            boolean edge = i == 0 || i == n - 1;
            sb.append(!edge && chance(10) ? '-' : alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    String subdomain(int parts) {
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < parts; i++) {
            labels.add(label());
        }
        return String.join(".", labels);
    }

    String driver() {
        String d = subdomain(1 + random.nextInt(3));
        if (d.length() > 63) {
            d = "gpu.example.com";
        }
        return chance(20) ? d.toUpperCase(java.util.Locale.ROOT) : d; // drivers are case-insensitive
    }

    String timestamp() {
        return String.format("%04d-%02d-%02dT%02d:%02d:%02dZ", 1000 + random.nextInt(9000), 1 + random.nextInt(12),
                1 + random.nextInt(28), random.nextInt(24), random.nextInt(60), random.nextInt(60));
    }

    <T> List<T> list(int min, int max, Supplier<T> item) {
        int n = min + random.nextInt(max - min + 1);
        List<T> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(item.get());
        }
        return out;
    }

    <V> Map<String, V> map(int max, Supplier<String> key, Supplier<V> value) {
        Map<String, V> out = new LinkedHashMap<>();
        int n = random.nextInt(max + 1);
        for (int i = 0; i < n; i++) {
            out.put(key.get(), value.get());
        }
        return out;
    }

    DeviceAttribute attribute() {
        return switch (random.nextInt(8)) {
            case 0 -> new DeviceAttribute(anyLong(), null, null, null, null, null, null, null);
            case 1 -> new DeviceAttribute(null, random.nextBoolean(), null, null, null, null, null, null);
            case 2 -> new DeviceAttribute(null, null, unicode(40), null, null, null, null, null);
            case 3 -> new DeviceAttribute(null, null, null, random.nextInt(5) + "." + random.nextInt(20) + ".0", null,
                    null, null, null);
            case 4 -> new DeviceAttribute(null, null, null, null, list(1, 5, this::anyLong), null, null, null);
            case 5 -> new DeviceAttribute(null, null, null, null, null, list(1, 3, random::nextBoolean), null, null);
            case 6 -> new DeviceAttribute(null, null, null, null, null, null, list(1, 4, () -> unicodeBytes(30, 64)), null);
            default -> new DeviceAttribute(null, null, null, null, null, null, null, list(1, 3, () -> "1.0." + random.nextInt(9)));
        };
    }

    NetworkDeviceData networkData() {
        Set<String> ips = new LinkedHashSet<>();
        int n = random.nextInt(17);
        for (int i = 0; i < n; i++) {
            ips.add(chance(50) ? "10." + random.nextInt(256) + "." + random.nextInt(256) + ".1/24"
                    : "2001:db8::" + Integer.toHexString(random.nextInt(0xffff)) + "/64");
        }
        return new NetworkDeviceData(maybe(() -> unicodeBytes(60, 256)), chance(70) ? List.copyOf(ips) : null,
                maybe(() -> unicodeBytes(40, 128)));
    }

    Device device() {
        String pool = String.join("/", list(1, 3, () -> subdomain(1 + random.nextInt(2))));
        return new Device(driver(), pool.length() > 253 ? "pool" : pool, label(),
                maybe(() -> map(32, () -> chance(50) ? unicode(12) : subdomain(2) + "/" + label(), this::attribute)),
                maybe(this::networkData));
    }

    /** A compact field set whose tokens a re-encoding would change: Go keeps them as written. */
    RawJson fieldsV1() {
        return new RawJson("{\"f:metadata\":{\"f:labels\":{\".\":{},\"f:" + label() + "\":{}}},\"n\":[" + anyLong() + ","
                + random.nextInt() + ",1.0,1.50,0.1000000000000000000000001,1e400,1E+2,-0.0,\"x\\u00e9\\/\"],"
                + "\"t\":true,\"z\":null}");
    }

    ObjectMeta objectMeta() {
        return new ObjectMeta(maybe(this::label), maybe(() -> unicode(10)), maybe(this::label), maybe(() -> unicode(10)),
                maybe(() -> java.util.UUID.nameUUIDFromBytes(new byte[] {(byte) random.nextInt()}).toString()),
                maybe(() -> Long.toString(nonNegativeLong())), maybe(this::nonNegativeLong), maybe(this::timestamp),
                maybe(this::timestamp), maybe(this::anyLong), maybe(() -> map(4, () -> unicode(8), () -> unicode(8))),
                maybe(() -> map(3, () -> unicode(8), () -> unicode(30))),
                maybe(() -> list(0, 2, () -> new OwnerReference("v" + unicode(5), "K" + unicode(5), label(), "u" + unicode(5),
                        maybe(random::nextBoolean), maybe(random::nextBoolean)))),
                maybe(() -> list(0, 3, () -> unicode(10))),
                maybe(() -> list(0, 2, () -> new ManagedFieldsEntry(maybe(() -> unicode(5)), pick(List.of("Apply", "Update")),
                        maybe(() -> unicode(5)), maybe(this::timestamp), maybe(() -> "FieldsV1"), maybe(this::fieldsV1),
                        maybe(() -> unicode(5))))));
    }

    /** A valid object (no violations), labelled v1beta1. */
    DeviceMetadata object() {
        return new DeviceMetadata(DeviceMetadata.KIND, DeviceMetadata.V1BETA1, maybe(this::objectMeta),
                maybe(this::label), maybe(() -> list(0, 3, () -> new DeviceMetadataRequest(
                        chance(80) ? label() : label() + "/" + label(), maybe(() -> list(0, 3, this::device))))));
    }

    /** A stream for {@code object}, the way a writer (Go or not) could lay it out, with what it expects. */
    record Stream(byte[] bytes, String firstKnown, List<String> skipped) {}

    Stream stream(DeviceMetadata object) throws JsonProcessingException {
        List<String> versions = new ArrayList<>(KNOWN);
        java.util.Collections.shuffle(versions, random);
        if (chance(40)) {
            versions = versions.subList(0, 1);
        }
        List<String> skipped = list(0, 3, () -> pick(UNKNOWN));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (chance(20)) {
            write(out, separator());
        }
        for (String gv : skipped) {
            write(out, unknownObject(object, gv));
            write(out, separator());
        }
        for (String gv : versions) {
            write(out, encode(object.withApiVersion(gv)));
            write(out, separator());
        }
        if (chance(20)) {
            write(out, pick(List.of("{broken", "]", "}", "\u0000", "[[[", "\"")));
        }
        return new Stream(out.toByteArray(), versions.get(0), skipped);
    }

    String encode(Object value) throws JsonProcessingException {
        String json = chance(50) ? JSON.writerWithDefaultPrettyPrinter().writeValueAsString(value) : JSON.writeValueAsString(value);
        // (a tree would re-encode fieldsV1's numbers, which must stay as written)
        json = chance(30) && !json.contains("\"fieldsV1\"") ? zerosAsNull(json) : json;
        // a key written twice: Go decodes the later value over the earlier one
        return chance(20) && json.contains("\"podClaimName\"") ? json.replaceFirst("\\{", "{\"podClaimName\":\"decoy\",") : json;
    }

    /**
     * The same object with some zero list items and map values ({@code 0}, {@code false}, {@code ""},
     * {@code {}}) written as {@code null}, which Go reads back as the zero value. fieldsV1 is left as written.
     */
    private String zerosAsNull(String json) throws JsonProcessingException {
        com.fasterxml.jackson.databind.JsonNode tree = JSON.readTree(json);
        nullZeros(tree);
        return JSON.writeValueAsString(tree);
    }

    private void nullZeros(com.fasterxml.jackson.databind.JsonNode node) {
        if (node instanceof com.fasterxml.jackson.databind.node.ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                if (isZero(array.get(i)) && chance(50)) {
                    array.set(i, com.fasterxml.jackson.databind.node.NullNode.getInstance());
                } else {
                    nullZeros(array.get(i));
                }
            }
        } else if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode object) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                com.fasterxml.jackson.databind.JsonNode value = object.get(name);
                if (name.equals("labels") || name.equals("annotations") || name.equals("attributes")) {
                    value.properties().forEach(e -> {
                        if (isZero(e.getValue()) && chance(50)) {
                            e.setValue(com.fasterxml.jackson.databind.node.NullNode.getInstance());
                        }
                    });
                }
                if (!name.equals("fieldsV1")) {
                    nullZeros(value);
                }
            }
        }
    }

    private static boolean isZero(com.fasterxml.jackson.databind.JsonNode v) {
        return (v.isIntegralNumber() && v.asLong() == 0 && !v.asText().startsWith("-")) || (v.isBoolean() && !v.asBoolean())
                || (v.isTextual() && v.asText().isEmpty()) || (v.isObject() && v.isEmpty());
    }

    private String unknownObject(DeviceMetadata object, String gv) throws JsonProcessingException {
        return switch (random.nextInt(4)) {
            // the same object in a newer version
            case 0 -> encode(object.withApiVersion(gv));
            // a newer shape that would not even bind to ours
            case 1 -> "{\"apiVersion\":\"" + gv + "\",\"kind\":\"DeviceMetadata\",\"requests\":\"changed\",\"metadata\":[1,2]}";
            case 2 -> "{\"kind\":\"DeviceMetadata\",\"x\":" + "[".repeat(50) + "]".repeat(50) + ",\"apiVersion\":\"" + gv + "\"}";
            default -> "{\"KIND\":\"Other\",\"ApiVersion\":\"" + gv + "\",\"n\":1e999999,\"s\":\"\\ud800\"}";
        };
    }

    String separator() {
        return pick(List.of("\n", "", " ", "\r\n", "\n\n\t ", "  \n"));
    }

    private static void write(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    /** One random edit of {@code in}: flip, delete, insert, truncate or duplicate a range. */
    byte[] mutate(byte[] in) {
        if (in.length == 0) {
            return new byte[] {(byte) random.nextInt(256)};
        }
        int at = random.nextInt(in.length);
        int len = 1 + random.nextInt(Math.min(16, in.length - at));
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length + 32);
        switch (random.nextInt(5)) {
            case 0 -> { // flip to a random or a JSON-significant byte
                byte[] copy = in.clone();
                byte[] significant = "{}[]\",:\\0123456789eE.-+ntf \u0000".getBytes(StandardCharsets.ISO_8859_1);
                copy[at] = chance(50) ? (byte) random.nextInt(256) : significant[random.nextInt(significant.length)];
                return copy;
            }
            case 1 -> { // delete
                out.write(in, 0, at);
                out.write(in, at + len, in.length - at - len);
            }
            case 2 -> { // insert
                out.write(in, 0, at);
                byte[] insert = pick(List.of(new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xC3}, new byte[] {0},
                        new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, "\\ud800".getBytes(StandardCharsets.US_ASCII),
                        "}{".getBytes(StandardCharsets.US_ASCII), "99999999999999999999".getBytes(StandardCharsets.US_ASCII),
                        new byte[] {(byte) random.nextInt(256), (byte) random.nextInt(256)}));
                out.writeBytes(insert);
                out.write(in, at, in.length - at);
            }
            case 3 -> out.write(in, 0, at); // truncate
            default -> { // duplicate a range
                out.write(in, 0, at + len);
                out.write(in, at, in.length - at);
            }
        }
        return out.toByteArray();
    }
}
