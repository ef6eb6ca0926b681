package dev.dra.sidecar.node;

import dev.dra.sidecar.testsupport.ScriptedComponent;
import dev.dra.sidecar.testsupport.Unavailable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real single-node Kubernetes run by {@code src/test/kube-node/start.sh} (kube-apiserver, etcd, containerd,
 * kubelet, kube-scheduler, kube-controller-manager, the upstream DRA test driver and the two attribute drivers of
 * {@code attribute-drivers.sh}), the binaries built once by the {@code build.sh} scripts into a cache that later runs
 * reuse. Output goes to {@code target/kube-node/}.
 *
 * <p>{@link #close()} stops it (the script's trap deletes the pods, removes every process, mount, link and file the
 * node made, and checks that nothing is left) and fails when the script says it left something or failed; should
 * this JVM end without closing it, the script notices that its parent is gone.
 */
final class KubeNode implements AutoCloseable {

    static final Path SCRIPTS = Path.of("src/test/kube-node");
    static final Path STATE = Path.of("target/kube-node");
    private static final String TESTS = "the real-node tests";
    /** The name of the upstream DRA test driver the node runs (its devices, ResourceSlices and plugin). */
    static final String TEST_DRIVER = "test-driver.cdi.k8s.io";
    /**
     * The attribute driver that writes no metadata files: devices gpu-0..gpu-7 with the attributes uuid, memory,
     * driverVersion and index, gpu-7 also example.com/mixed (DeviceClasses attributes.example.com and
     * mixed.example.com). Its component is {@value #ATTRIBUTE_DRIVER_COMPONENT}; env keys attribute_driver,
     * attribute_driver_devices (the devices file: replace it by rename to republish), attribute_driver_plugin_dir.
     */
    static final String ATTRIBUTE_DRIVER = "attributes.example.com";
    static final String ATTRIBUTE_DRIVER_COMPONENT = "attribute-driver";
    /**
     * The attribute driver that writes metadata files: device nic-0 with model and example.com/mixed (DeviceClass
     * mixed.example.com). Its component is {@value #ATTRIBUTE_FILE_DRIVER_COMPONENT}; env keys attribute_file_driver,
     * attribute_file_driver_devices, attribute_file_driver_plugin_dir.
     */
    static final String ATTRIBUTE_FILE_DRIVER = "files.example.com";
    static final String ATTRIBUTE_FILE_DRIVER_COMPONENT = "attribute-file-driver";
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(90);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(240);
    private static final Duration STOP_GRACE = Duration.ofSeconds(90);

    private final ScriptedComponent component;
    final String kubeconfig;
    /**
     * The node's facts from start.sh's {@code env} file: containerd_socket, ctr, app_image, node, driver, plugin_dir,
     * registry_hosts_dir, and the attribute drivers' keys (see {@link #ATTRIBUTE_DRIVER},
     * {@link #ATTRIBUTE_FILE_DRIVER}).
     */
    final Map<String, String> env;

    private KubeNode(ScriptedComponent component) {
        this.component = component;
        this.kubeconfig = component.read("kubeconfig");
        this.env = component.readEnv("env");
    }

    /**
     * Builds the binaries where the cache does not have them, then starts the node and waits until it is usable.
     *
     * @throws Unavailable when this machine has no Go toolchain or the tests do not run as root
     * @throws IllegalStateException when the build or the start fails, with where to look
     */
    static KubeNode start() throws Unavailable {
        if (!"root".equals(System.getProperty("user.name"))) {
            throw new Unavailable(TESTS + " run kubelet and containerd, which need root");
        }
        ScriptedComponent.build(TESTS, "kube-apiserver and etcd", Path.of("src/test/kube-apiserver/build.sh"),
                STATE.resolve("apiserver-build.log"), BUILD_TIMEOUT);
        ScriptedComponent.build(TESTS, "the node's binaries", SCRIPTS.resolve("build.sh"),
                STATE.resolve("node-build.log"), BUILD_TIMEOUT);
        return new KubeNode(ScriptedComponent.start("the real node", SCRIPTS.resolve("start.sh"), STATE,
                START_TIMEOUT, STOP_GRACE));
    }

    /**
     * Stops the node and waits until start.sh has removed what it made (SIGTERM, then SIGKILL to the tree).
     *
     * @throws IllegalStateException when start.sh did not exit 0: something was left on the machine (its output names
     *         each leftover), a component had exited, or it did not stop in time
     */
    @Override
    public void close() {
        int status = component.stop();
        if (status != 0) {
            String output = component.output();
            throw new IllegalStateException("the real node's start.sh ended with exit status " + status + ": "
                    + output.substring(Math.max(0, output.length() - 3000)) + " (logs in " + STATE + ")");
        }
    }

    /**
     * Stops ({@code "stop"}) or starts again ({@code "start"}) one component of the running node alone, with the same
     * command line and state (component.sh: containerd, kubelet, kube-scheduler, kube-controller-manager, test-driver,
     * attribute-driver, attribute-file-driver).
     * Returns once the process is gone or started; what it serves afterwards is for the caller to wait for.
     *
     * @throws IllegalStateException when start.sh refuses (not running, running already) or does not answer
     */
    void component(String verb, String name) {
        long started = System.nanoTime();
        try {
            Process process = new ProcessBuilder("bash", SCRIPTS.resolve("component.sh").toString(), STATE.toString(),
                    verb, name).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("component.sh " + verb + " " + name + " failed: " + out);
            }
            System.err.printf("[node] %s %s: %d ms%n", verb, name, (System.nanoTime() - started) / 1_000_000);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** SIGKILL to start.sh alone, as a crash would end it: its trap does not run, so the node's cleanup is left. */
    void killScript() {
        component.killScript();
    }

    /**
     * How many times kubelet has registered the DRA test driver's kubelet plugin so far, as kubelet.log says
     * (start.sh raises the plugin manager's verbosity for that line).
     */
    long driverRegistrations() {
        return driverRegistrations(TEST_DRIVER);
    }

    /** How many times kubelet has registered the kubelet plugin of the driver so far, as kubelet.log says. */
    long driverRegistrations(String driver) {
        try (Stream<String> lines = Files.lines(STATE.resolve("kubelet.log"), StandardCharsets.ISO_8859_1)) {
            return lines.filter(line -> line.contains("\"Registered DRA plugin\"")
                    && line.contains("driverName=\"" + driver + "\"")).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What start.sh has written so far (target/kube-node/start.log). */
    String output() {
        return component.output();
    }
}
