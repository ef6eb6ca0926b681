package dev.dra.sidecar.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The upstream Go reader as a child process: {@code src/test/go/oracle/cmd/oracle}, built with the Go toolchain
 * at the module versions its {@code go.sum} pins, answering one JSON line per request (see its package comment).
 * Its read requests see the files under the container path {@link #CONTAINER_DIR}: {@link #start(Path)} runs
 * it in a private mount namespace where a tree is bind-mounted there.
 */
public final class GoOracle implements AutoCloseable {

    public static final Path MODULE = Path.of("src/test/go/oracle");
    /** Where the upstream Read* functions look; fixed in the upstream package. */
    public static final String CONTAINER_DIR = "/var/run/kubernetes.io/dra-device-attributes";
    private static final Path BINARY = Path.of("target/go-oracle/oracle");
    /**
     * Reads JSON keeping numbers as written ({@code 1.0}, {@code 1e400} and {@code 1} stay three different
     * values), nested as deep as a decodable stream can be (Go's limit is 10,000 levels): the oracle's answers and
     * the sidecar's bodies that are compared with them.
     */
    public static final ObjectMapper JSON = new ObjectMapper(com.fasterxml.jackson.core.JsonFactory.builder()
            .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder().maxNestingDepth(20_000).build())
            .streamWriteConstraints(com.fasterxml.jackson.core.StreamWriteConstraints.builder().maxNestingDepth(20_000).build())
            .build())
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .setNodeFactory(com.fasterxml.jackson.databind.node.JsonNodeFactory.withExactBigDecimals(true));

    private final Process process;
    private final OutputStream in;
    private final BufferedReader out;

    private GoOracle(Process process) {
        this.process = process;
        this.in = process.getOutputStream();
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** The go command, or why there is none: the tests that need it are skipped with this reason. */
    public static Optional<Path> goCommand() {
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/local/go/bin").split(":")) {
            Path go = Path.of(dir.isEmpty() ? "." : dir, "go");
            if (Files.isExecutable(go)) {
                return Optional.of(go);
            }
        }
        return Optional.empty();
    }

    /** Builds the oracle into {@code target/go-oracle} (Go's build cache makes a rebuild cheap). */
    public static Path build() {
        Path go = goCommand().orElseThrow(() -> new IllegalStateException("no go command on PATH or in /usr/local/go/bin"));
        run(MODULE, List.of(go.toString(), "build", "-mod=readonly", "-o", BINARY.toAbsolutePath().toString(), "./cmd/oracle"));
        return BINARY;
    }

    /** Builds and starts the oracle for stream requests only (its read requests would find no files). */
    public static GoOracle start() {
        return launch(List.of(build().toAbsolutePath().toString()));
    }

    /**
     * Builds and starts the oracle in a private mount namespace (needs root, see
     * {@link PackagedSidecar#canBindMount()}) in which {@code tree} is bind-mounted at {@link #CONTAINER_DIR},
     * on a tmpfs over {@code /run} so that nothing is created on the host.
     */
    public static GoOracle start(Path tree) {
        String binary = build().toAbsolutePath().toString();
        String script = "mount -t tmpfs tmpfs /run && mkdir -p " + CONTAINER_DIR + " && mount --bind "
                + PackagedSidecar.shellQuote(tree.toAbsolutePath().toString()) + " " + CONTAINER_DIR + " && exec "
                + PackagedSidecar.shellQuote(binary);
        return launch(List.of("unshare", "-m", "--propagation", "private", "sh", "-c", script));
    }

    private static GoOracle launch(List<String> command) {
        try {
            return new GoOracle(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code {"op":"decode"}}: what {@code DecodeMetadataFromStream} with validation returns for {@code stream}. */
    public JsonNode decode(byte[] stream) {
        return ask(JSON.createObjectNode().put("op", "decode").put("stream", stream));
    }

    /** {@code {"op":"read"}}: what the Read* function for {@code kind} returns; {@code driver} null for the merged read. */
    public JsonNode read(String kind, String claim, String request, String driver) {
        ObjectNode line = JSON.createObjectNode().put("op", "read").put("kind", kind).put("claim", claim).put("request", request);
        if (driver != null) {
            line.put("driver", driver);
        }
        return ask(line);
    }

    /** {@code {"op":"canonical"}}: {@code object} as Go reads it strictly and marshals it again. */
    public JsonNode canonical(JsonNode object) {
        ObjectNode line = JSON.createObjectNode().put("op", "canonical");
        line.set("object", object);
        return ask(line);
    }

    private JsonNode ask(ObjectNode line) {
        try {
            in.write(JSON.writeValueAsBytes(line));
            in.write('\n');
            in.flush();
            String answer = out.readLine();
            if (answer == null) {
                throw new IllegalStateException("the oracle ended" + exitStatus());
            }
            return JSON.readTree(answer);
        } catch (IOException e) {
            throw new UncheckedIOException("the oracle failed" + exitStatus(), e);
        }
    }

    private String exitStatus() {
        return process.isAlive() ? "" : " with exit status " + process.exitValue();
    }

    @Override
    public void close() {
        try {
            in.close();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** Runs {@code command} in {@code directory} and returns its output; fails with the output unless it exits 0. */
    static String run(Path directory, List<String> command) {
        try {
            Process p = new ProcessBuilder(new ArrayList<>(command)).directory(directory.toFile()).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(15, TimeUnit.MINUTES) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
