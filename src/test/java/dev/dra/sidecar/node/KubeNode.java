package dev.dra.sidecar.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real single-node Kubernetes run by {@code src/test/kube-node/start.sh} (kube-apiserver, etcd, containerd,
 * kubelet, kube-scheduler, kube-controller-manager, the upstream DRA test driver), the binaries built once by the
 * {@code build.sh} scripts into a cache that later runs reuse. Output goes to {@code target/kube-node/}.
 *
 * <p>{@link #close()} stops it (the script's trap deletes the pods and removes every process, mount, link and
 * file the node made); should this JVM end without closing it, the script notices that its parent is gone.
 */
final class KubeNode implements AutoCloseable {

    static final Path SCRIPTS = Path.of("src/test/kube-node");
    static final Path STATE = Path.of("target/kube-node");
    /** build.sh's exit status when there is no Go toolchain. */
    private static final int NO_GO = 3;
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(90);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(240);

    /** Why there is no node: the tests that need one are skipped with this reason. */
    static final class Unavailable extends Exception {
        Unavailable(String reason) {
            super(reason);
        }
    }

    private final Process process;
    final String kubeconfig;
    /** The node's facts from start.sh's {@code env} file: containerd_socket, ctr, app_image, node, plugin_dir. */
    final Map<String, String> env;
    /** From start.sh's start to the node being usable. */
    final Duration startToUsable;

    private KubeNode(Process process, String kubeconfig, Map<String, String> env, Duration startToUsable) {
        this.process = process;
        this.kubeconfig = kubeconfig;
        this.env = env;
        this.startToUsable = startToUsable;
    }

    /**
     * Builds the binaries where the cache does not have them, then starts the node and waits until it is usable.
     *
     * @throws Unavailable when this machine has no Go toolchain or the tests do not run as root
     * @throws IllegalStateException when the build or the start fails, with where to look
     */
    static KubeNode start() throws Unavailable {
        if (!"root".equals(System.getProperty("user.name"))) {
            throw new Unavailable("the real-node tests run kubelet and containerd, which need root");
        }
        try {
            Files.createDirectories(STATE);
            build("kube-apiserver and etcd", Path.of("src/test/kube-apiserver/build.sh"), "apiserver-build.log");
            build("the node's binaries", SCRIPTS.resolve("build.sh"), "node-build.log");
            long started = System.nanoTime();
            Path log = STATE.resolve("start.log");
            Process process = new ProcessBuilder("bash", SCRIPTS.resolve("start.sh").toString(), STATE.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            Path ready = STATE.resolve("ready");
            long deadline = started + START_TIMEOUT.toNanos();
            while (!Files.exists(ready)) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    process.destroy();
                    process.waitFor(60, TimeUnit.SECONDS);
                    throw new IllegalStateException("the node did not become usable within " + START_TIMEOUT + ": "
                            + Files.readString(log) + " (logs in " + STATE + ")");
                }
                Thread.sleep(50);
            }
            Duration startToUsable = Duration.ofNanos(System.nanoTime() - started);
            System.err.println("real node usable in " + startToUsable.toMillis() + " ms");
            KubeNode node = new KubeNode(process, Files.readString(STATE.resolve("kubeconfig")),
                    readEnv(STATE.resolve("env")), startToUsable);
            Runtime.getRuntime().addShutdownHook(new Thread(node::close, "kube-node-stop"));
            return node;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, String> readEnv(Path file) throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                env.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return env;
    }

    private static void build(String what, Path script, String logName)
            throws IOException, InterruptedException, Unavailable {
        Path log = STATE.resolve(logName);
        System.err.println(what + ": " + script + " (reuses its cache; a first build takes long), log: " + log);
        Process build = new ProcessBuilder("bash", script.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!build.waitFor(BUILD_TIMEOUT.toMinutes(), TimeUnit.MINUTES)) {
            build.descendants().forEach(ProcessHandle::destroy);
            build.destroy();
            throw new IllegalStateException("building " + what + " took more than " + BUILD_TIMEOUT + "; log: " + log);
        }
        String output = Files.readString(log);
        if (build.exitValue() == NO_GO) {
            throw new Unavailable("the real-node tests need Go to build " + what + ": " + output.strip());
        }
        if (build.exitValue() != 0) {
            throw new IllegalStateException("building " + what + " failed (exit " + build.exitValue() + "); log "
                    + log + ":\n" + output);
        }
    }

    /** Stops the node and waits until start.sh has removed what it made (SIGTERM, then SIGKILL to the tree). */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        var descendants = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                descendants.forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
