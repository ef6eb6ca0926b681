package dev.dra.sidecar.store.file;

import dev.dra.sidecar.decode.MetadataStreamDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.IntFunction;

/**
 * The measurement behind {@link HeldCharge}'s constants (docs/operations.md, "Memory bound"): for each shape of file,
 * decodes many distinct files, keeps their objects, and prints the heap they take after full GCs beside what they
 * are charged. Not a test: run it after changing the model or the decoding, with a heap of its own, e.g.
 * {@code java -XX:+UseSerialGC -Xmx1g -cp 'target/test-classes:target/classes:target/quarkus-app/lib/main/*'
 * dev.dra.sidecar.store.file.HeldChargeMeasurement}; every ratio it prints (charge over heap) must stay above 1.
 */
final class HeldChargeMeasurement {

    private HeldChargeMeasurement() {}

    public static void main(String[] args) {
        measure("bench", 10000, HeldChargeMeasurement::bench);
        measure("32x32 int", 300, i -> devices(i, 32, 32, g -> attribute(g, "int", String.valueOf(i * 10000L + g))));
        measure("32x32 string", 300, i -> devices(i, 32, 32,
                g -> attribute(g, "string", "\"v" + (i * 10000L + g) + "\"")));
        measure("64x8 lists", 300, i -> devices(i, 64, 8, g -> attribute(g, "ints", "[" + i + "," + g + ",3,4]")));
        measure("long ascii", 200, i -> longString(i, "x"));
        measure("long cyrillic", 200, i -> longString(i, "\u0436"));
    }

    /** A file of the bench's kind: one GPU with five attributes, the UUID unique. */
    private static String bench(int i) {
        return head(i) + "{\"driver\":\"gpu.example.com\",\"pool\":\"worker-0\",\"name\":\"gpu-3\",\"attributes\":{"
                + "\"driverVersion\":{\"version\":\"1.0.0\"},\"index\":{\"int\":3},"
                + "\"model\":{\"string\":\"LATEST-GPU-MODEL\"},"
                + "\"resource.kubernetes.io/pciBusID\":{\"string\":\"0000:04:00.0\"},"
                + "\"uuid\":{\"string\":\"gpu-" + uuid("gpu" + i) + "\"}}}]}]}";
    }

    /** {@code count} devices of {@code per} attributes; {@code attribute} gives each from its number in the file. */
    private static String devices(int i, int count, int per, IntFunction<String> attribute) {
        StringBuilder out = new StringBuilder(head(i));
        for (int d = 0; d < count; d++) {
            out.append(d > 0 ? "," : "").append("{\"driver\":\"gpu.example.com\",\"pool\":\"worker-0\",\"name\":\"gpu-")
                    .append(d).append("\",\"attributes\":{");
            for (int a = 0; a < per; a++) {
                out.append(a > 0 ? "," : "").append(attribute.apply(d * per + a));
            }
            out.append("}}");
        }
        return out.append("]}]}").toString();
    }

    /** Attribute {@code a<g % 32>}: the same names on every device, the values as given. */
    private static String attribute(int g, String member, String value) {
        return "\"a" + g % 32 + "\":{\"" + member + "\":" + value + "}";
    }

    private static String longString(int i, String unit) {
        return head(i) + "{\"driver\":\"d\",\"pool\":\"p\",\"name\":\"n\",\"attributes\":{\"s\":{\"string\":\"" + i
                + unit.repeat(20000) + "\"}}}]}]}";
    }

    private static String head(int i) {
        return "{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"metadata.resource.k8s.io/v1beta1\",\"metadata\":{"
                + "\"name\":\"claim-" + i + "\",\"namespace\":\"bench\",\"uid\":\"" + uuid("claim" + i)
                + "\",\"generation\":1},\"requests\":[{\"name\":\"req-3\",\"devices\":[";
    }

    private static String uuid(String seed) {
        return UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8)).toString();
    }

    private static void measure(String shape, int files, IntFunction<String> file) {
        try {
            MetadataStreamDecoder.decode(file.apply(-1).getBytes(StandardCharsets.UTF_8), "warm-up");
            List<Object> kept = new ArrayList<>(files);
            long before = usedAfterGc();
            long charged = 0;
            long bytes = 0;
            for (int i = 0; i < files; i++) {
                byte[] content = file.apply(i).getBytes(StandardCharsets.UTF_8);
                bytes += content.length;
                var object = MetadataStreamDecoder.decode(content, shape).object();
                charged += HeldCharge.of(object);
                kept.add(object);
            }
            long heap = usedAfterGc() - before;
            System.out.printf("%-14s %5d files of %7d B: heap %8d B, charge %8d B a file, ratio %.2f%n", shape, files,
                    bytes / files, heap / files, charged / files, (double) charged / heap);
            kept.clear();
        } catch (Exception e) {
            throw new IllegalStateException(shape, e);
        }
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
