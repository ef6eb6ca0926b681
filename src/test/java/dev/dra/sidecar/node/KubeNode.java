package dev.dra.sidecar.node;

import dev.dra.sidecar.testsupport.ApiServerOutage;
import dev.dra.sidecar.testsupport.GoTools;
import dev.dra.sidecar.testsupport.ScriptedComponent;
import dev.dra.sidecar.testsupport.Unavailable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
    /**
     * The environment variable naming another Kubernetes release to run (start.sh's {@code DRA_KUBE_RELEASE}, one of
     * {@code src/test/kube-node/releases}); the node's {@code env} says which release ran.
     */
    static final String RELEASE = "DRA_KUBE_RELEASE";
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(90);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(240);
    private static final Duration STOP_GRACE = Duration.ofSeconds(90);

    private final ScriptedComponent component;
    final String kubeconfig;
    /**
     * The node's facts from start.sh's {@code env} file: containerd_socket, ctr, app_image, node, driver, plugin_dir,
     * registry_hosts_dir, release and kubelet_release (versions), kube_apiserver, kubelet, kube_scheduler,
     * kube_controller_manager and test_driver (the binaries started), and the attribute drivers' keys (see
     * {@link #ATTRIBUTE_DRIVER}, {@link #ATTRIBUTE_FILE_DRIVER}).
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
        releaseBin(null);
        String release = System.getenv(RELEASE);
        if (release != null && !release.isEmpty()) {
            releaseBin(release);
        }
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
        component(verb, name, "");
    }

    /**
     * Starts one stopped Kubernetes command of the node (kubelet, kube-scheduler, kube-controller-manager,
     * test-driver) again with the same command line and state but {@code binDir}'s binary of that name (another
     * release's, {@link #releaseBin}), as an upgrade or a downgrade replaces it; that binary stays the command's.
     */
    void startFrom(String name, Path binDir) {
        component("start", name, binDir.toString());
    }

    /**
     * The directory of {@code release}'s Kubernetes commands (build.sh {@code --release}, built where the cache lacks
     * them; {@code null} or build.sh's own release: build.sh's own binaries).
     */
    static Path releaseBin(String release) throws Unavailable {
        release = other(release);
        String log = release == null ? "node-build.log" : "release-" + release + "-build.log";
        return GoTools.printedPath(TESTS, release == null ? "the node's binaries" : "Kubernetes " + release
                + "'s commands", SCRIPTS.resolve("build.sh"), STATE.resolve(log),
                release == null ? new String[0] : new String[] {"--release", release}).resolve("bin");
    }

    /**
     * {@code release}'s binary of the Kubernetes command {@code command} (built where the cache lacks it), which may
     * not exist: a release builds only the commands its module names. build.sh's own release's kube-apiserver is
     * src/test/kube-apiserver's.
     */
    static Path releaseCommand(String release, String command) throws Unavailable {
        if (other(release) == null && command.equals("kube-apiserver")) {
            return GoTools.printedPath(TESTS, "kube-apiserver and etcd", Path.of("src/test/kube-apiserver/build.sh"),
                    STATE.resolve("apiserver-build.log")).resolve("bin").resolve(command);
        }
        return releaseBin(release).resolve(command);
    }

    /**
     * The k8s.io/kubernetes version {@code release} builds ({@code null} or build.sh's own release: build.sh's own),
     * e.g. {@code v1.36.3}.
     */
    static String releaseVersion(String release) {
        release = other(release);
        Path goMod = SCRIPTS.resolve(release == null ? "kubernetes" : "releases/" + release).resolve("go.mod");
        try (Stream<String> lines = Files.lines(goMod)) {
            return lines.filter(line -> line.startsWith("require k8s.io/kubernetes ")).findFirst().orElseThrow()
                    .substring("require k8s.io/kubernetes ".length()).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void component(String verb, String name, String binDir) {
        long started = System.nanoTime();
        try {
            List<String> command = new ArrayList<>(List.of("bash", SCRIPTS.resolve("component.sh").toString(),
                    STATE.toString(), verb, name));
            if (!binDir.isEmpty()) {
                command.add(binDir);
            }
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
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

    /**
     * Stops kube-apiserver (etcd keeps running) and starts it again on the same state from {@code binary} (another
     * release's, for an upgrade or a downgrade of the control plane); returns once it answers {@code /readyz}.
     */
    void restartApiServerFrom(Path binary) {
        ApiServerOutage.begin(STATE.resolve("apiserver"), binary).run();
    }

    /**
     * {@code release} (one of src/test/kube-node/releases), or {@code null} where it is build.sh's own
     * (kubernetes/go.mod's minor release).
     */
    private static String other(String release) {
        if (release == null || Files.isDirectory(SCRIPTS.resolve("releases").resolve(release))) {
            return release;
        }
        if (releaseVersion(null).startsWith("v" + release + ".")) {
            return null;
        }
        throw new IllegalArgumentException("no Kubernetes release " + release + " in " + SCRIPTS.resolve("releases"));
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
