package dev.dra.sidecar.kube;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A real kube-apiserver with its etcd, run by {@code src/test/kube-apiserver/start.sh} on 127.0.0.1 (free ports,
 * temporary data, generated certificates), the binaries built once by {@code build.sh} into a cache that later
 * runs reuse. Output goes to {@code target/kube-apiserver/} (build.log, start.log, kube-apiserver.log, etcd.log).
 *
 * <p>{@link #close()} stops both processes (the script's trap); should this JVM end without closing it, the
 * script notices that its parent is gone and stops them itself.
 */
final class KubeApiServer implements AutoCloseable {

    static final Path SCRIPTS = Path.of("src/test/kube-apiserver");
    static final Path STATE = Path.of("target/kube-apiserver");
    /** build.sh's exit status when there is no Go toolchain. */
    private static final int NO_GO = 3;
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(60);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    /** Why there is no API server: the tests that need one are skipped with this reason. */
    static final class Unavailable extends Exception {
        Unavailable(String reason) {
            super(reason);
        }
    }

    private final Process process;
    final String kubeconfig;

    private KubeApiServer(Process process, String kubeconfig) {
        this.process = process;
        this.kubeconfig = kubeconfig;
    }

    /**
     * Builds the binaries if the cache does not have them yet (a first build takes 10 to 35 minutes on 2 cores), then starts the
     * API server and waits until it is ready.
     *
     * @throws Unavailable when this machine has no Go toolchain
     * @throws IllegalStateException when the build or the start fails, with where to look
     */
    static KubeApiServer start() throws Unavailable {
        try {
            Files.createDirectories(STATE);
            build();
            long started = System.nanoTime();
            Process process = new ProcessBuilder("bash", SCRIPTS.resolve("start.sh").toString(), STATE.toString())
                    .redirectErrorStream(true).redirectOutput(STATE.resolve("start.log").toFile()).start();
            Path ready = STATE.resolve("ready");
            long deadline = started + START_TIMEOUT.toNanos();
            while (!Files.exists(ready)) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    process.destroy();
                    throw new IllegalStateException("kube-apiserver did not become ready within " + START_TIMEOUT
                            + ": " + Files.readString(STATE.resolve("start.log")) + " (logs in " + STATE + ")");
                }
                Thread.sleep(50);
            }
            Duration startToReady = Duration.ofNanos(System.nanoTime() - started);
            System.err.println("kube-apiserver ready in " + startToReady.toMillis() + " ms");
            KubeApiServer server = new KubeApiServer(process, Files.readString(STATE.resolve("kubeconfig")));
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "kube-apiserver-stop"));
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void build() throws IOException, InterruptedException, Unavailable {
        Path log = STATE.resolve("build.log");
        System.err.println("kube-apiserver and etcd: build.sh (reuses its cache; a first build takes 10 to 35 minutes on 2 cores), log: "
                + log);
        Process build = new ProcessBuilder("bash", SCRIPTS.resolve("build.sh").toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!build.waitFor(BUILD_TIMEOUT.toMinutes(), TimeUnit.MINUTES)) {
            build.descendants().forEach(ProcessHandle::destroy);
            build.destroy();
            throw new IllegalStateException("building kube-apiserver took more than " + BUILD_TIMEOUT + "; log: " + log);
        }
        String output = Files.readString(log);
        if (build.exitValue() == NO_GO) {
            throw new Unavailable("the Kubernetes API server tests need Go to build kube-apiserver and etcd: "
                    + output.strip());
        }
        if (build.exitValue() != 0) {
            throw new IllegalStateException("building kube-apiserver and etcd failed (exit " + build.exitValue()
                    + "); log " + log + ":\n" + output);
        }
    }

    /** Stops the API server and etcd and waits for them (SIGTERM to the script, then SIGKILL to the whole tree). */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        var descendants = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                descendants.forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
