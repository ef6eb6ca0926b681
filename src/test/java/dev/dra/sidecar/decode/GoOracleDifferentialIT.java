package dev.dra.sidecar.decode;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.testsupport.GoOracle;
import dev.dra.sidecar.testsupport.PackagedSidecar;
import dev.dra.sidecar.testsupport.Seeds;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Differential conformance: seeded, generated streams and request trees, answered by the packaged sidecar over
 * HTTP and by the upstream Go reader ({@link GoOracle}), must agree as {@link GoVerdicts} says. Streams go through
 * {@code POST /validate}; trees are written as claims into the sidecar's root, then every merged request, every
 * driver's object, one attribute per request and every served validation is compared with Go's read of the same
 * files.
 *
 * <p>{@code -Ddra.oracle.cases=N} sets how many cases run (default 10,000; {@code 1000000} for a long run), and
 * {@code -Ddra.oracle.seed=S} reproduces a run ({@code random} explores with a fresh one; a build runs seed 1): a
 * failure names the seed it ran with. Skipped, saying why, where
 * there is no Go toolchain; the tree cases are skipped where no mount namespace can be made (the Go reader only
 * reads the container path).
 */
class GoOracleDifferentialIT {

    static final int CASES = Integer.getInteger("dra.oracle.cases", 10_000);
    static final long SEED = Seeds.of("dra.oracle.seed", 1);
    /** Share of the cases that are tree reads; the rest are streams. */
    private static final int TREE_PERCENT = 20;
    private static final ObjectMapper JSON = GoOracle.JSON;
    /** Inputs Jazzer found to reach new code in the decoder ({@link DecoderFuzzTarget}). */
    private static final Path CORPUS = Path.of("src/test/resources/fixtures/oracle-corpus");

    private static Path root;
    private static PackagedSidecar sidecar;

    @BeforeAll
    static void startSidecar() throws IOException {
        assumeTrue(GoOracle.goCommand().isPresent(), "no Go toolchain (go on PATH or /usr/local/go/bin): the Go oracle cannot be built");
        System.out.println("GoOracleDifferentialIT: " + CASES + " cases, seed " + SEED + " (-Ddra.oracle.seed=" + SEED + " reproduces)");
        root = Files.createTempDirectory(Files.createDirectories(Path.of("target/oracle")), "tree").toAbsolutePath();
        Files.createDirectories(root.resolve("resourceclaims"));
        Files.createDirectories(root.resolve("resourceclaimtemplates"));
        sidecar = PackagedSidecar.start("oracle-differential", root, List.of(), List.of(), Map.of());
    }

    @AfterAll
    static void stopSidecar() {
        if (sidecar != null) {
            sidecar.close();
        }
    }

    @Test
    void streamsDecodeAsGoDecodesThem() throws Throwable {
        onLargeStack(this::compareStreams);
    }

    /**
     * The coverage-guided corpus: inputs Jazzer kept because they reach new code in the decoder
     * ({@code src/test/jazzer/fuzz.sh}), every one of them every run.
     */
    @Test
    void theCoverageCorpusDecodesAsGoDecodesIt() throws Throwable {
        onLargeStack(this::compareCorpus);
    }

    @Test
    void requestTreesReadAsGoReadsThem() throws Throwable {
        assumeTrue(PackagedSidecar.canBindMount(), "no private mount namespace (needs root and unshare): the Go reader "
                + "only reads " + GoOracle.CONTAINER_DIR);
        onLargeStack(this::compareTrees);
    }

    /** A test that serializes or compares JSON nested 10,000 levels deep: Jackson's tree code recurses. */
    private interface Comparison {
        void run() throws Exception;
    }

    private static void onLargeStack(Comparison comparison) throws Throwable {
        Throwable[] failure = new Throwable[1];
        Thread thread = new Thread(null, () -> {
            try {
                comparison.run();
            } catch (Throwable t) {
                failure[0] = t;
            }
        }, "oracle-comparison", 1L << 30);
        thread.start();
        thread.join();
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    private void compareStreams() throws Exception {
        int cases = CASES - CASES * TREE_PERCENT / 100;
        OracleDifferences differences = new OracleDifferences("stream", SEED, CASES);
        long started = System.nanoTime();
        try (GoOracle oracle = GoOracle.start()) {
            GoVerdicts verdicts = new GoVerdicts(oracle);
            StreamCases generator = new StreamCases(new Random(SEED));
            int done = 0;
            while (done < cases) {
                for (byte[] stream : generator.next()) {
                    compare(stream, String.valueOf(done), oracle, verdicts, differences);
                    done++;
                }
            }
            differences.assertNone(done, started);
        }
    }

    private void compareCorpus() throws Exception {
        OracleDifferences differences = new OracleDifferences("corpus", SEED, CASES);
        long started = System.nanoTime();
        List<Path> files;
        try (var listing = Files.list(CORPUS)) {
            files = listing.sorted().toList();
        }
        try (GoOracle oracle = GoOracle.start()) {
            GoVerdicts verdicts = new GoVerdicts(oracle);
            for (Path file : files) {
                compare(Files.readAllBytes(file), file.getFileName().toString(), oracle, verdicts, differences);
            }
            differences.assertNone(files.size(), started);
        }
    }

    private void compare(byte[] stream, String name, GoOracle oracle, GoVerdicts verdicts, OracleDifferences differences)
            throws IOException {
        String difference = verdicts.decode(oracle.decode(stream), validate(stream));
        if (difference != null) {
            differences.add(name, "stream (base64) " + Base64.getEncoder().encodeToString(stream) + "\n  "
                    + new String(stream, StandardCharsets.UTF_8).replaceAll("(.{400}).*", "$1…") + "\n  " + difference);
        }
    }

    private void compareTrees() throws Exception {
        int cases = CASES * TREE_PERCENT / 100;
        OracleDifferences differences = new OracleDifferences("tree", SEED, CASES);
        long started = System.nanoTime();
        try (GoOracle oracle = GoOracle.start(root)) {
            RequestTrees trees = new RequestTrees(new Random(SEED ^ 0x5DEECE66DL), root, sidecar, new GoVerdicts(oracle), oracle);
            int done = 0;
            for (int batch = 0; done < cases; batch++) {
                done += trees.runBatch(batch, differences, done);
            }
            differences.assertNone(done, started);
        }
    }

    private JsonNode validate(byte[] stream) throws IOException {
        HttpResponse<String> response = sidecar.send(HttpRequest.newBuilder(sidecar.uri("/validate"))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(stream)).build());
        if (response.statusCode() != 200) {
            throw new AssertionError("POST /validate answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** Streams to compare, a few at a time: every truncation of a small stream comes as one group. */
    static final class StreamCases {
        private final RandomMetadata random;
        private final StreamMutations mutations;
        private final UnicodeCases unicode;
        private final GoYamlFlowCases flow;

        StreamCases(Random random) {
            this.random = new RandomMetadata(random);
            this.mutations = new StreamMutations(this.random);
            this.unicode = new UnicodeCases(new Random(random.nextLong()));
            this.flow = new GoYamlFlowCases(this.random);
        }

        List<byte[]> next() throws IOException {
            DeviceMetadata object = random.object();
            return switch (random.random.nextInt(22)) {
                case 0, 1, 2, 3, 4 -> List.of(random.stream(object).bytes());
                case 20, 21 -> List.of(unicode.next());
                case 19 -> List.of(flow.next());
                case 5, 6, 7 -> List.of(random.mutate(random.stream(object).bytes()));
                case 8 -> truncations();
                default -> List.of(withNeighbours(mutations.mutate(GoCompatibleJson.mapper().writeValueAsString(object))));
            };
        }

        /** Every byte-offset prefix of a small stream. */
        private List<byte[]> truncations() throws IOException {
            DeviceMetadata small = new RandomMetadata(new Random(random.random.nextLong())).object();
            byte[] stream = random.stream(small).bytes();
            if (stream.length > 600) {
                stream = random.stream(new DeviceMetadata(DeviceMetadata.KIND, DeviceMetadata.V1BETA1, null, random.label(),
                        null)).bytes();
            }
            List<byte[]> prefixes = new ArrayList<>();
            for (int n = 0; n <= stream.length; n++) {
                prefixes.add(java.util.Arrays.copyOf(stream, n));
            }
            return prefixes;
        }

        /** A mutated object, sometimes after an unknown version or before a valid object of another version. */
        private byte[] withNeighbours(byte[] mutated) throws IOException {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            if (random.chance(20)) {
                out.writeBytes(("{\"apiVersion\":\"" + random.pick(RandomMetadata.UNKNOWN) + "\",\"kind\":\"DeviceMetadata\"}\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            out.writeBytes(mutated);
            if (random.chance(20)) {
                out.writeBytes(("\n" + GoCompatibleJson.mapper().writeValueAsString(random.object().withApiVersion(
                        DeviceMetadata.V1ALPHA1))).getBytes(StandardCharsets.UTF_8));
            }
            return out.toByteArray();
        }
    }
}
