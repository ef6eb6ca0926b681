package dev.dra.sidecar.decode;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.dra.sidecar.testsupport.Seeds;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A file is input from another container, so no stream may crash, hang or exhaust the decoder. Over 10,000
 * generated and mutated streams (deep nesting, numbers of thousands to a million digits, megabyte strings and
 * keys, invalid UTF-8, BOM, NUL, 1 MiB+ inputs, many objects, unclosed strings) each must give a result or a
 * coded failure within a time bound; running the corpus twice must not grow the heap.
 */
class HostileDecoderInputTest {

    private static final int INPUTS = 10_240;
    private static final long BOUND_MS = 5_000; // generous: a quadratic parse of a megabyte takes 20 s
    private static final long HEAP_GROWTH_LIMIT = 64L << 20;
    private static final int MIB = 1 << 20;

    private static ExecutorService executor;

    @BeforeAll
    static void start() {
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "hostile-decode");
            t.setDaemon(true);
            return t;
        });
        // class loading and the first big-number parse take seconds on a cold JVM; that is not what is bounded
        for (String warm : List.of("[1]", TestStreams.ALPHA + ",\"metadata\":{\"managedFields\":[{\"fieldsV1\":{\"n\":["
                + "7".repeat(2_000) + ",0." + "7".repeat(2_000) + "]}}],\"generation\":" + "7".repeat(2_000) + "}}")) {
            try {
                MetadataStreamDecoder.decode(warm.getBytes(StandardCharsets.UTF_8), "warm-up");
            } catch (MetadataDecodeException expected) {
                // only the warm-up matters
            }
        }
    }

    @AfterAll
    static void stop() {
        executor.shutdownNow();
    }

    /** What one pass over the corpus saw. */
    private static final class Tally {
        int tried;
        int decoded;
        final Map<FailureCode, Integer> failures = new EnumMap<>(FailureCode.class);
        long slowestMs;
        String slowest = "";
        long bytes;

        String summary() {
            Map<String, Integer> byCode = new java.util.LinkedHashMap<>();
            failures.forEach((c, n) -> byCode.put(c.code(), n));
            return "hostile decoder input: " + tried + " inputs (" + (bytes >> 20) + " MiB), " + decoded + " results, failures "
                    + byCode + ", slowest " + slowestMs + " ms (" + slowest + ")";
        }
    }

    @Test
    void everyHostileStreamDecodesOrFailsWithACodeInBoundedTimeAndMemory() throws Exception {
        long seed = Seeds.of("decoder.seed", 1);
        Tally first = run(seed);
        long heapAfterFirst = usedHeapAfterGc();
        Tally second = run(seed);
        long heapAfterSecond = usedHeapAfterGc();
        System.out.println(first.summary() + "; second pass slowest " + second.slowestMs + " ms; heap after passes "
                + (heapAfterFirst >> 20) + " MiB / " + (heapAfterSecond >> 20) + " MiB; seed " + seed);
        assertTrue(first.tried >= 10_000, first::summary);
        assertTrue(first.decoded > 100 && first.failures.size() >= 4, () -> "corpus lacks variety: " + first.summary());
        assertTrue(heapAfterSecond - heapAfterFirst < HEAP_GROWTH_LIMIT, () -> "heap grew from " + (heapAfterFirst >> 20)
                + " MiB to " + (heapAfterSecond >> 20) + " MiB over an identical second pass (seed " + seed + ")");
    }

    private static long usedHeapAfterGc() {
        var memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    private Tally run(long seed) throws Exception {
        Random random = new Random(seed);
        Corpus corpus = new Corpus(random);
        Tally tally = new Tally();
        for (int i = 0; i < INPUTS; i++) {
            String[] label = new String[1];
            byte[] input = corpus.next(i, label);
            String where = "input " + i + " (" + label[0] + ", " + input.length + " bytes, seed " + seed + "): "
                    + new String(input, 0, Math.min(200, input.length), StandardCharsets.ISO_8859_1).replace("\n", "\\n");
            long start = System.nanoTime();
            Future<Object> outcome = executor.submit(() -> {
                try {
                    return MetadataStreamDecoder.decode(input, "hostile.json");
                } catch (MetadataDecodeException e) {
                    return e;
                } catch (Throwable t) { // StackOverflowError, OutOfMemoryError, any RuntimeException: all bugs
                    return new AssertionError("not a coded failure: " + t, t);
                }
            });
            Object result;
            try {
                result = outcome.get(BOUND_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                outcome.cancel(true);
                fail("no outcome within " + BOUND_MS + " ms for " + where);
                return tally;
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            tally.tried++;
            tally.bytes += input.length;
            if (ms > tally.slowestMs) {
                tally.slowestMs = ms;
                tally.slowest = label[0] + ", " + input.length + " bytes";
            }
            if (result instanceof AssertionError error) {
                throw new AssertionError(error.getMessage() + " for " + where, error.getCause());
            } else if (result instanceof MetadataDecodeException e) {
                if (e.code() == null || e.getMessage() == null || e.getMessage().length() > 2_000) {
                    fail("failure without a code or with an unbounded message for " + where);
                }
                tally.failures.merge(e.code(), 1, Integer::sum);
            } else if (result instanceof DecodedMetadata d) {
                if (d.object() == null || d.sourceVersion() == null) {
                    fail("incomplete result for " + where);
                }
                tally.decoded++;
            } else {
                fail("unexpected outcome " + result + " for " + where);
            }
        }
        return tally;
    }

    /** Deterministic given its Random: the same seed gives the same inputs, so they need not be kept. */
    private static final class Corpus {
        private final Random random;
        private final RandomMetadata gen;
        private final List<byte[]> bases = new ArrayList<>();

        Corpus(Random random) throws Exception {
            this.random = random;
            this.gen = new RandomMetadata(random);
            for (int i = 0; i < 40; i++) {
                bases.add(gen.stream(gen.object()).bytes());
            }
        }

        byte[] next(int i, String[] label) throws Exception {
            int slot = i % 512;
            if (slot < 2) {
                label[0] = "big";
                return big(random.nextInt(8));
            }
            if (slot < 40) {
                label[0] = "medium";
                return medium(random.nextInt(10));
            }
            if (slot < 80) {
                label[0] = "small-hostile";
                return small(random.nextInt(10));
            }
            label[0] = "mutated";
            byte[] b = bases.get(random.nextInt(bases.size()));
            int edits = 1 + random.nextInt(6);
            for (int e = 0; e < edits; e++) {
                b = gen.mutate(b);
            }
            return b;
        }

        private String known() {
            return random.nextBoolean() ? TestStreams.ALPHA : TestStreams.BETA;
        }

        private static String repeat(String s, int times) {
            return s.repeat(Math.max(0, times));
        }

        /** Inputs around or beyond 1 MiB. */
        private byte[] big(int kind) {
            int size = MIB + random.nextInt(MIB / 4) - MIB / 8;
            return switch (kind) {
                case 0 -> utf8(known() + ",\"x\":" + repeat("9", size) + "}");                       // megabyte number
                case 1 -> utf8(known() + ",\"podClaimName\":\"" + repeat("\\u0041", size / 6) + "\"}"); // escaped string
                case 2 -> utf8(repeat(TestStreams.UNKNOWN + "\n", size / 70) + known() + "}");          // many objects
                case 3 -> utf8(repeat(" ", size) + repeat("]", random.nextInt(3)));                      // whitespace
                case 4 -> utf8("{\"kind\":\"K\",\"apiVersion\":\"a/b\",\"s\":\"" + repeat("x", size));  // unclosed string
                case 5 -> utf8(known() + ",\"" + repeat("k", size) + "\":1}");                           // megabyte key
                case 6 -> utf8(known() + ",\"x\":" + repeat("[", size / 2) + repeat("]", size / 2) + "}"); // far too deep
                default -> randomBytes(size);
            };
        }

        /** Inputs of tens to hundreds of kilobytes. */
        private byte[] medium(int kind) {
            int n = 1_000 + random.nextInt(random.nextInt(10) == 0 ? 200_000 : 30_000);
            return switch (kind) {
                case 0 -> utf8(known() + ",\"metadata\":{\"generation\":" + repeat("1", n) + "}}");
                case 1 -> utf8(known() + ",\"requests\":[{\"name\":\"r\",\"devices\":[{\"attributes\":{\"a\":{\"int\":-"
                        + repeat("7", n) + "}}}]}]}");
                case 2 -> utf8(known() + ",\"metadata\":{\"managedFields\":[{\"fieldsV1\":{\"n\":[" + repeat("3", n) + ",0."
                        + repeat("3", n) + ",1e" + random.nextInt(1_000_000) + ",-2.5E-" + random.nextInt(1_000_000) + "]}}]}}");
                case 3 -> utf8(known() + ",\"requests\":[{\"name\":\"r\",\"devices\":[{\"attributes\":{" + attributes(n / 20)
                        + "}}]}]}");
                case 4 -> utf8(known() + ",\"x\":" + nested(random.nextInt(12_000)) + "}");
                case 5 -> utf8(known() + ",\"metadata\":{\"labels\":{" + collidingKeys(12) + "}}}");
                case 6 -> utf8(repeat("{\"kind\":\"K\",\"apiVersion\":\"g/v" + random.nextInt(9) + "\"}", n / 40)
                        + (random.nextBoolean() ? known() + "}" : ""));
                case 7 -> TestStreams.concat(known() + ",\"podClaimName\":\"", invalidUtf8(n / 10), "\"}");
                case 8 -> utf8(known() + ",\"podClaimName\":\"" + repeat("\\ud800", n / 6) + "\"}");
                default -> utf8(known() + ",\"requests\":[" + repeat("{\"name\":\"r\",\"devices\":[{\"name\":\"d\"}]},", n / 40)
                        + "{\"name\":\"last\"}]}");
            };
        }

        /** Short inputs aimed at one rule each. */
        private byte[] small(int kind) {
            return switch (kind) {
                case 0 -> TestStreams.concat("", new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, known() + "}");
                case 1 -> TestStreams.concat(TestStreams.UNKNOWN, new byte[] {0}, known() + "}");
                case 2 -> utf8(known() + ",\"podClaimName\":\"unclosed");
                case 3 -> utf8(nested(9_990 + random.nextInt(20)));
                case 4 -> utf8(known() + ",\"metadata\":{\"generation\":" + pick("2.5", "2.0", "1e3", "\"1\"", "9223372036854775808",
                        "-9223372036854775809", "true", "null", "[]", "{}") + "}}");
                case 5 -> utf8(pick("[]", "\"x\"", "5", "null", "5}", "truex", "tru", "-", "}", "]", "", " ", "\u0000", "{}"));
                case 6 -> randomBytes(random.nextInt(64));
                case 7 -> utf8(known() + ",\"metadata\":{\"creationTimestamp\":\"" + pick("2008-01-01T01:01:01Z",
                        "2008-01-01t01:01:01z", "9999-12-31T23:59:59-24:60", "0000-01-01T00:00:00+24:00", "2008-02-30T00:00:00Z",
                        "2008-01-01T01:01:01." + repeat("9", 10_000) + "Z") + "\"}}");
                case 8 -> utf8("{\"kind\":\"" + pick("DeviceMetadata", "Status", "WatchEvent", "") + "\",\"apiVersion\":\""
                        + pick("v1", "/", "a/b/c", "metadata.resource.k8s.io/__internal", "metadata.resource.k8s.io/v1beta1", "")
                        + "\"}" + known() + "}");
                default -> TestStreams.concat(known() + ",\"x\":\"", invalidUtf8(64), "\",", invalidUtf8(3), "}");
            };
        }

        private String attributes(int n) {
            StringBuilder sb = new StringBuilder();
            for (int k = 0; k < n; k++) {
                sb.append(k == 0 ? "" : ",").append("\"a").append(k).append("\":{\"int\":").append(random.nextLong()).append('}');
            }
            return sb.toString();
        }

        /** 2^bits distinct keys with the same String.hashCode ("Aa" and "BB" collide). */
        private static String collidingKeys(int bits) {
            StringBuilder sb = new StringBuilder();
            for (int k = 0; k < 1 << bits; k++) {
                sb.append(k == 0 ? "" : ",").append('"');
                for (int b = 0; b < bits; b++) {
                    sb.append((k >> b & 1) == 0 ? "Aa" : "BB");
                }
                sb.append("\":\"v\"");
            }
            return sb.toString();
        }

        private String nested(int depth) {
            StringBuilder sb = new StringBuilder(depth * 6);
            List<Character> closers = new ArrayList<>(depth);
            for (int d = 0; d < depth; d++) {
                if (random.nextBoolean()) {
                    sb.append('[');
                    closers.add(']');
                } else {
                    sb.append("{\"a\":");
                    closers.add('}');
                }
            }
            sb.append("0");
            boolean close = random.nextInt(4) != 0; // sometimes left open
            for (int d = closers.size() - 1; close && d >= 0; d--) {
                sb.append(closers.get(d));
            }
            return sb.toString();
        }

        private byte[] invalidUtf8(int n) {
            byte[][] pieces = {{(byte) 0xFF}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                {(byte) 0xE2, (byte) 0x82}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0x80},
                {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80}, {'a'}};
            ByteArrayOutputStream out = new ByteArrayOutputStream(n);
            while (out.size() < n) {
                out.writeBytes(pieces[random.nextInt(pieces.length)]);
            }
            return out.toByteArray();
        }

        private byte[] randomBytes(int n) {
            byte[] b = new byte[n];
            random.nextBytes(b);
            return b;
        }

        private String pick(String... options) {
            return options[random.nextInt(options.length)];
        }

        private static byte[] utf8(String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
    }
}
