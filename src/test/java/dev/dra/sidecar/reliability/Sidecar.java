package dev.dra.sidecar.reliability;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
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
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The packaged sidecar ({@code target/quarkus-app/quarkus-run.jar}) as a child process, with the JVM options of the
 * container image, so that tests can give it a mount namespace, another user, and measure its threads and RSS.
 * The API listens on 127.0.0.1 only, on a free port.
 */
final class Sidecar implements AutoCloseable {

    static final Path RUNNER = Path.of("target/quarkus-app/quarkus-run.jar");
    private static final Path JVM_OPTIONS = Path.of("src/main/docker/jvm-options");

    private final Process process;
    private final Path log;
    final int port;
    final int managementPort;
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private Sidecar(Process process, Path log, int port, int managementPort) {
        this.process = process;
        this.log = log;
        this.port = port;
        this.managementPort = managementPort;
    }

    /**
     * Starts the sidecar on {@code root} and waits until it answers.
     *
     * @param prefix command words before {@code sh -c} (for example {@code unshare -m ...} or {@code setpriv ...})
     * @param preamble shell commands run before {@code exec java}, joined with {@code &&} (for example mounts)
     */
    static Sidecar start(String name, Path root, List<String> prefix, List<String> preamble, Map<String, String> properties) {
        assertTrue(Files.isRegularFile(RUNNER), RUNNER + " is missing: run the *IT tests with ./mvnw verify (after package)");
        int port = freePort();
        int managementPort = freePort();
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
        script.append("exec ").append(java.stream().map(Sidecar::shellQuote).collect(Collectors.joining(" ")));
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of("sh", "-c", script.toString()));
        try {
            Path logDir = Files.createDirectories(Path.of("target/reliability"));
            Path log = logDir.resolve(name + ".log");
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            Sidecar sidecar = new Sidecar(process, log, port, managementPort);
            sidecar.awaitServing();
            return sidecar;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The image's JVM options (src/main/docker/jvm-options) but the AOT cache options, with the heap the pod limit gives. */
    private static List<String> imageJvmOptions() {
        try (Stream<String> lines = Files.lines(JVM_OPTIONS)) {
            List<String> options = new ArrayList<>(lines.map(String::trim)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#") && !l.startsWith("-XX:AOT"))
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
            pause(50);
        }
        fail("sidecar did not answer within 60 s:\n" + log());
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port + pathAndQuery);
    }

    HttpResponse<String> get(String pathAndQuery) throws IOException {
        return send(HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(30)).GET().build());
    }

    HttpResponse<String> management(String path) throws IOException {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                .timeout(Duration.ofSeconds(10)).GET().build());
    }

    HttpResponse<String> send(HttpRequest request) throws IOException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Threads of the sidecar's JVM, from /proc. */
    int threads() {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid()), "task"))) {
            return (int) tasks.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The sidecar's threads by name, digits folded ({@code executor-thread-#}), for a report. */
    Map<String, Long> threadNames() {
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
    long rssKib() {
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

    String log() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e + ")";
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
    static boolean canBindMount() {
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

    static String shellQuote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Polls {@code condition} until it holds or the deadline passes; true when it held. */
    static boolean await(Duration within, BooleanSupplier condition) {
        long deadline = System.nanoTime() + within.toNanos();
        do {
            if (condition.getAsBoolean()) {
                return true;
            }
            pause(10);
        } while (System.nanoTime() < deadline);
        return condition.getAsBoolean();
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
