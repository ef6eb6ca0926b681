package dev.dra.sidecar.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real component run by its folder's scripts, the contract they share: {@code build.sh} builds the binaries into
 * the Go tool cache (exit 3: no Go toolchain), {@code start.sh STATE} runs the component with its state and logs in
 * STATE, creates {@code STATE/ready} once the component is usable, and on SIGTERM (or when its parent is gone)
 * stops everything it started and removes what it made.
 */
public final class ScriptedComponent implements AutoCloseable {

    /** build.sh's exit status when there is no Go toolchain. */
    private static final int NO_GO = 3;

    private final Process process;
    private final Path state;
    private final Duration stopGrace;

    private ScriptedComponent(Process process, Path state, Duration stopGrace) {
        this.process = process;
        this.state = state;
        this.stopGrace = stopGrace;
    }

    /**
     * Runs {@code script} (a build.sh that builds {@code what}, reusing its cache) with {@code args} and its output in
     * {@code log}.
     *
     * @throws Unavailable when there is no Go toolchain: "{@code whoNeedsIt} need Go to build {@code what}: " and the
     *         script's reason
     * @throws IllegalStateException when the build fails or takes longer than {@code timeout}, with the log
     */
    public static void build(String whoNeedsIt, String what, Path script, Path log, Duration timeout, String... args)
            throws Unavailable {
        System.err.println(what + ": " + script + " (reuses its cache; a first build takes long), log: " + log);
        try {
            Files.createDirectories(log.getParent());
            List<String> command = new ArrayList<>(List.of("bash", script.toString()));
            command.addAll(List.of(args));
            Process build = new ProcessBuilder(command)
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!build.waitFor(timeout.toMinutes(), TimeUnit.MINUTES)) {
                build.descendants().forEach(ProcessHandle::destroy);
                build.destroy();
                throw new IllegalStateException("building " + what + " took more than " + timeout + "; log: " + log);
            }
            String output = Files.readString(log);
            if (build.exitValue() == NO_GO) {
                throw new Unavailable(whoNeedsIt + " need Go to build " + what + ": " + output.strip());
            }
            if (build.exitValue() != 0) {
                throw new IllegalStateException("building " + what + " failed (exit " + build.exitValue() + "); log "
                        + log + ":\n" + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Starts {@code script} (a start.sh) on {@code state}, its output in {@code state/start.log}, and waits until
     * {@code state/ready} exists. The component stops on {@link #close()} or when this JVM ends; {@code stopGrace} is
     * how long its script may take to clean up before the whole process tree is killed.
     *
     * @throws IllegalStateException when the script ends or {@code startTimeout} passes before it is ready, with its
     *         output
     */
    public static ScriptedComponent start(String name, Path script, Path state, Duration startTimeout,
            Duration stopGrace) {
        try {
            Files.createDirectories(state);
            long started = System.nanoTime();
            Path log = state.resolve("start.log");
            Path ready = state.resolve("ready");
            Files.deleteIfExists(ready);   // a killed run's: the script removes it too, but only once it runs
            Process process = new ProcessBuilder("bash", script.toString(), state.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            long deadline = started + startTimeout.toNanos();
            while (!Files.exists(ready)) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    process.destroy();
                    process.waitFor(stopGrace.toSeconds(), TimeUnit.SECONDS);
                    throw new IllegalStateException(name + " did not become ready within " + startTimeout + ": "
                            + Files.readString(log) + " (logs in " + state + ")");
                }
                Thread.sleep(50);
            }
            Duration startToReady = Duration.ofNanos(System.nanoTime() - started);
            System.err.println(name + " ready in " + startToReady.toMillis() + " ms");
            ScriptedComponent component = new ScriptedComponent(process, state, stopGrace);
            Runtime.getRuntime().addShutdownHook(new Thread(component::close, name + "-stop"));
            return component;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The text of a file start.sh wrote into its state directory. */
    public String read(String file) {
        try {
            return Files.readString(state.resolve(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A file of {@code KEY=VALUE} lines that start.sh wrote into its state directory, in its order. */
    public Map<String, String> readEnv(String file) {
        Map<String, String> env = new LinkedHashMap<>();
        read(file).lines().forEach(line -> {
            int eq = line.indexOf('=');
            if (eq > 0) {
                env.put(line.substring(0, eq), line.substring(eq + 1));
            }
        });
        return env;
    }

    /** Stops the component and waits for its script to clean up (SIGTERM, then SIGKILL to the whole tree). */
    @Override
    public void close() {
        stop();
    }

    /**
     * As {@link #close()}, and says how the script ended: its exit status (also when it had ended by itself before),
     * or -1 when it outlived {@code stopGrace} and the whole tree was killed.
     */
    public int stop() {
        if (process.isAlive()) {
            var descendants = process.descendants().toList();
            process.destroy();
            try {
                if (!process.waitFor(stopGrace.toSeconds(), TimeUnit.SECONDS)) {
                    descendants.forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                    return -1;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
        }
        return process.exitValue();
    }

    /** SIGKILL to the script alone, as a crash would end it (no trap runs); returns once it is gone. */
    public void killScript() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The script's output so far ({@code STATE/start.log}). */
    public String output() {
        return read("start.log");
    }
}
