package dev.dra.sidecar.testsupport;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.LocalPorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The packaged sidecar ({@code target/quarkus-app/quarkus-run.jar}, built by {@code ./mvnw package}, so only for
 * {@code *IT} tests) as a child process with the JVM options of the container image, so that tests can give it a
 * mount namespace, another user, environment variables, and measure its threads and RSS. The API and management
 * interfaces listen on 127.0.0.1 only, each on a free port; the process's output goes to
 * {@code target/reliability/<name>.log}. {@link #close()} stops it (SIGTERM, then SIGKILL after 10 s).
 */
public final class PackagedSidecar implements AutoCloseable {

    public static final Path RUNNER = Path.of("target/quarkus-app/quarkus-run.jar");
    private static final Path JVM_OPTIONS = Path.of("src/main/docker/jvm-options");
    private static final Path DOCKERFILE = Path.of("src/main/docker/Dockerfile.jvm");

    private final Process process;
    private final Path log;
    /** The API port. */
    public final int port;
    public final int managementPort;
    /** An HTTP/1.1 client for requests the helpers here do not cover (async long polls, for example). */
    public final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private PackagedSidecar(Process process, Path log, int port, int managementPort) {
        this.process = process;
        this.log = log;
        this.port = port;
        this.managementPort = managementPort;
    }

    /** {@link #start(String, Path, List, List, Map, Map)} with the environment of this JVM. */
    public static PackagedSidecar start(String name, Path root, List<String> prefix, List<String> preamble,
            Map<String, String> properties) {
        return start(name, root, prefix, preamble, properties, Map.of());
    }

    /**
     * Starts the sidecar on {@code root} and waits (up to 60 s) until {@code GET /claims} answers 200; fails the
     * test with the process's output when it exits or does not answer in time.
     *
     * @param name names the log file, {@code target/reliability/<name>.log}
     * @param prefix command words before {@code sh -c} (for example {@code unshare -m ...} or {@code setpriv ...})
     * @param preamble shell commands run before {@code exec java}, joined with {@code &&} (for example mounts)
     * @param properties system properties ({@code -Dkey=value}) after the image's JVM options
     * @param environment variables added to this JVM's environment, as an operator sets them in the pod spec
     */
    public static PackagedSidecar start(String name, Path root, List<String> prefix, List<String> preamble,
            Map<String, String> properties, Map<String, String> environment) {
        assertTrue(Files.isRegularFile(RUNNER), RUNNER + " is missing: run the *IT tests with ./mvnw verify (after package)");
        int port = LocalPorts.free();
        int managementPort = LocalPorts.free();
        List<String> java = new ArrayList<>();
        java.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        java.addAll(imageJvmOptions());
        java.add("-Ddra.metadata.root=" + root);
        java.add("-Dquarkus.http.port=" + port);
        java.add("-Dquarkus.management.port=" + managementPort);
        java.add("-Dquarkus.management.host=127.0.0.1");
        properties.forEach((k, v) -> java.add("-D" + k + "=" + v));
        java.add("-jar");
        java.add(RUNNER.toAbsolutePath().toString());
        StringBuilder script = new StringBuilder();
        for (String step : preamble) {
            script.append(step).append(" && ");
        }
        script.append("exec ").append(java.stream().map(PackagedSidecar::shellQuote).collect(Collectors.joining(" ")));
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of("sh", "-c", script.toString()));
        try {
            Path logDir = Files.createDirectories(Path.of("target/reliability"));
            Path log = logDir.resolve(name + ".log");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            PackagedSidecar sidecar = new PackagedSidecar(builder.start(), log, port, managementPort);
            sidecar.awaitServing();
            return sidecar;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Where {@code ./mvnw package} puts what the image has in {@code /deployments/native}: JNA's native library, of
     * this machine's architecture.
     */
    static final Path NATIVE = Path.of("target/jna-native/com/sun/jna", com.sun.jna.Platform.RESOURCE_PREFIX);

    /**
     * The image's JVM options (src/main/docker/jvm-options) but the AOT cache options, with the heap the pod limit gives,
     * and the image's native library directory mapped to the build's. A JVM older than the image's ignores the options
     * it does not know (the image's own JVM takes them all: SidecarImageIT).
     */
    /**
     * What this JVM needs before the image's options: on a Java older than the one the image's build stage names
     * (src/main/docker/Dockerfile.jvm), that the options it does not know are ignored; nothing on the image's Java.
     */
    public static List<String> unknownOptionsIgnoredHere() {
        try {
            Matcher from = Pattern.compile("(?m)^FROM \\S*temurin:(\\d+)").matcher(Files.readString(DOCKERFILE));
            assertTrue(from.find(), "the build stage's Java in " + DOCKERFILE);
            return Runtime.version().feature() < Integer.parseInt(from.group(1))
                    ? List.of("-XX:+IgnoreUnrecognizedVMOptions") : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> imageJvmOptions() {
        try (Stream<String> lines = Files.lines(JVM_OPTIONS)) {
            List<String> options = new ArrayList<>(unknownOptionsIgnoredHere());
            options.addAll(lines.map(String::trim)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#") && !l.matches("-XX:[+-]?AOT.*"))
                    .map(l -> l.replace("/deployments/native", NATIVE.toAbsolutePath().toString()))
                    .toList());
            // The heap the percentages give under the pod's 160Mi limit; outside a container they apply to the host.
            options.add("-XX:MaxRAM=160m");
            return options;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitServing() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                fail("sidecar exited with " + process.exitValue() + ":\n" + log());
            }
            try {
                HttpResponse<String> r = get("/claims");
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Eventually.pause(Duration.ofMillis(50));
        }
        fail("sidecar did not answer within 60 s:\n" + log());
    }

    public URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port + pathAndQuery);
    }

    public HttpResponse<String> get(String pathAndQuery) throws IOException {
        return send(HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(30)).GET().build());
    }

    public HttpResponse<String> management(String path) throws IOException {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                .timeout(Duration.ofSeconds(10)).GET().build());
    }

    /**
     * The {@code data} of the check named {@code name} in a {@code /q/health} body (Quarkus lists its own checks
     * beside ours, in no fixed order); fails when there is none.
     */
    public static JsonNode checkData(String healthBody, String name) throws IOException {
        for (JsonNode check : new ObjectMapper().readTree(healthBody).path("checks")) {
            if (check.path("name").asText().equals(name)) {
                return check.path("data");
            }
        }
        return fail("no check " + name + " in " + healthBody);
    }

    public HttpResponse<String> send(HttpRequest request) throws IOException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Threads of the sidecar's JVM, from /proc. */
    public int threads() {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid()), "task"))) {
            return (int) tasks.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The sidecar's threads by name, digits folded ({@code executor-thread-#}), for a report. */
    public Map<String, Long> threadNames() {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid()), "task"))) {
            return tasks.map(t -> {
                try {
                    return Files.readString(t.resolve("comm")).trim().replaceAll("[0-9]+", "#");
                } catch (IOException e) {
                    return "?";
                }
            }).collect(Collectors.groupingBy(n -> n, java.util.TreeMap::new, Collectors.counting()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Resident set size of the sidecar's JVM in KiB, from /proc. */
    public long rssKib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("no VmRSS");
    }

    /** Everything the process wrote to stdout and stderr so far. */
    public String log() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /**
     * Sends SIGTERM, as kubelet does at pod deletion, and waits up to {@code within} for the process to end;
     * whether it ended. {@link #close()} still kills it if it did not.
     */
    public boolean terminate(Duration within) {
        process.destroy();
        try {
            return process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** Whether this process may make a private mount namespace and bind mounts in it (root with unshare). */
    public static boolean canBindMount() {
        try {
            Process p = new ProcessBuilder("unshare", "-m", "--propagation", "private", "true")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public static String shellQuote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
