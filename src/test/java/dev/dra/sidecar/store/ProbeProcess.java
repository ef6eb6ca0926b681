package dev.dra.sidecar.store;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@link BindMountProbe} in a child JVM, started by a shell command line (so that a test can put it in a mount or
 * user namespace and prepare that first), and its output line by line.
 */
final class ProbeProcess implements AutoCloseable {

    private final Process process;
    private final Path stderr;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();

    /**
     * @param prefix command words before {@code sh -c} (e.g. {@code unshare -m})
     * @param preamble shell commands run before the JVM, joined with {@code &&}, with {@code "$@"} at hand
     * @param jvmOptions options of the probe's JVM
     * @param args the probe's arguments: root, file, value of {@code dra.metadata.watch}
     */
    static ProbeProcess start(List<String> prefix, String preamble, List<String> jvmOptions, Path stderr,
            String... args) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of("sh", "-c", (preamble.isEmpty() ? "" : preamble + " && ") + "exec \"$@\"", "sh"));
        command.add(java);
        command.addAll(List.of("-Xmx64m", "-XX:TieredStopAtLevel=1"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), BindMountProbe.class.getName()));
        command.addAll(List.of(args));
        return new ProbeProcess(new ProcessBuilder(command).redirectError(stderr.toFile()).start(), stderr);
    }

    private ProbeProcess(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        Thread pump = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the probe ended
            }
            lines.add("EOF");
        }, "probe-stdout");
        pump.setDaemon(true);
        pump.start();
    }

    /** The next line; fails the test, with what the probe said, when none comes within {@code timeout}. */
    String next(Duration timeout) throws Exception {
        String line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null || line.equals("EOF")) {
            fail((line == null ? "nothing from the probe within " + timeout.toMillis() + " ms" : "the probe ended")
                    + " after " + seen + (process.isAlive() ? "" : ", exit " + process.exitValue()) + "; stderr:\n"
                    + tail());
        }
        seen.add(line);
        return line;
    }

    /** The next line, or {@code null} if none comes within {@code timeout}. */
    String poll(Duration timeout) throws InterruptedException {
        String line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (line != null) {
            seen.add(line);
        }
        return line;
    }

    /**
     * Waits for {@code gen <generation> ok}; the generation before it (possibly stale) and the probe's own
     * directory events ({@code event ...}) may come first.
     */
    void awaitGeneration(long generation, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (line.equals("gen " + generation + " ok")) {
                return;
            }
            if (line.startsWith("event ")) {
                continue;
            }
            if (!line.startsWith("gen ") || Long.parseLong(line.split(" ")[1]) > generation
                    || Long.parseLong(line.split(" ")[1]) < generation - 1) {
                fail("while waiting for generation " + generation + " the probe said: " + line + " after " + seen);
            }
        }
    }

    List<String> seen() {
        return seen;
    }

    private String tail() throws IOException {
        List<String> all = Files.exists(stderr) ? Files.readAllLines(stderr) : List.of();
        return String.join("\n", all.subList(Math.max(0, all.size() - 30), all.size()));
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    static boolean isRoot() throws IOException {
        return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    }

    static Path onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path candidate = Path.of(dir, command);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
