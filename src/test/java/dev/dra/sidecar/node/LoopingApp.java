package dev.dra.sidecar.node;

import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.GoOracle;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A pod given the sidecar by deploy/kubernetes/injection (as shipped), or node mode ({@link #startNodeMode}), whose
 * app ({@code src/test/kube-node/app-answers.py}) sends a GET for its claim's driver view 20 times a second and
 * records every answer with its times in an emptyDir; the test reads that file on the host (kubelet's pod
 * directory), so what the app saw can be read while kubelet or containerd is down. Every status of the pod the API
 * server gets is kept from the start (a watch), so that a test can say what kubelet reported throughout.
 */
final class LoopingApp implements AutoCloseable {

    static final Path SCRIPT = KubeNode.SCRIPTS.resolve("app-answers.py");
    static final int GETS_PER_SECOND = 20;
    /**
     * The longest time between two of the app's answers that still counts as answered throughout: longer than any
     * pause a loaded 2-core machine gives a process, far shorter than any outage.
     */
    static final long MAX_GAP_MS = 2000;

    private final KubeNodeExtension node;
    final String namespace;
    final Pod started;
    final Path answers;
    final Path hostFile;
    private final List<Pod> reported = new CopyOnWriteArrayList<>();
    private final Watch watch;

    private LoopingApp(KubeNodeExtension node, String namespace, Pod started) {
        this.node = node;
        this.namespace = namespace;
        this.started = started;
        this.answers = Path.of("/var/lib/kubelet/pods", started.getMetadata().getUid(),
                "volumes/kubernetes.io~empty-dir/answers/answers");
        this.hostFile = node.pods().hostFile(namespace, "gpu-claim", "gpu");
        this.watch = node.client().pods().inNamespace(namespace).withName(started.getMetadata().getName())
                .watch(new Watcher<Pod>() {
                    @Override
                    public void eventReceived(Action action, Pod pod) {
                        reported.add(pod);
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                        // the test closes it
                    }
                });
    }

    /**
     * In a new namespace {@code <prefix>-<n>} that opts in: the claim {@code gpu-claim} and the pod {@code app},
     * once the sidecar is ready and the app has its first {@code 200}.
     */
    static LoopingApp start(KubeNodeExtension node, String prefix) throws Exception {
        AppPods pods = node.pods();
        pods.applyInjection();
        String namespace = node.restrictedNamespace(prefix, AppPods.optIn());
        node.create(namespace, ClaimManifests.GPU_CLAIM);
        Pod pod = looping(pods.app(namespace, "app", command(node), AppPods.claim("gpu", "gpu-claim")));
        // The policy reaches admission through an informer: a dry run shows when it injects.
        Eventually.await(Duration.ofSeconds(60), () -> node.client().resource(pod).dryRun().create(),
                p -> !p.getSpec().getInitContainers().isEmpty(), "the injection policy in effect");
        return started(node, namespace, node.client().resource(pod).create());
    }

    /**
     * The same app in a pod of node mode (deploy/kubernetes/node's injection, applied by {@link NodeAgent#deploy}):
     * it asks the node's agent with its container's token. In a new namespace {@code <prefix>-<n>} that opts in, once
     * the app has its first {@code 200}.
     */
    static LoopingApp startNodeMode(KubeNodeExtension node, String prefix) throws Exception {
        String namespace = node.restrictedNamespace(prefix, AppPods.optIn());
        node.create(namespace, ClaimManifests.GPU_CLAIM);
        return started(node, namespace, node.client().resource(nodeModePod(node, namespace, "app",
                command(node, GETS_PER_SECOND, 0, false))).create());
    }

    /**
     * {@code count} such pods of node mode in {@code namespace} (opted in, holding the claim gpu-claim, which they
     * share), {@code <prefix>-0} and on, whose apps each send {@code getsPerSecond} GETs a second on new connections
     * (kind {@code get}), as many on a kept-alive one ({@code keep}) and hold a long poll ({@code poll0}); once each
     * has its first {@code 200}.
     */
    static List<LoopingApp> startNodeModePods(KubeNodeExtension node, String namespace, String prefix, int count,
            int getsPerSecond) throws Exception {
        List<Pod> created = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            created.add(node.client().resource(nodeModePod(node, namespace, prefix + "-" + i,
                    command(node, getsPerSecond, 1, true))).create());
        }
        List<LoopingApp> apps = new ArrayList<>();
        for (Pod pod : created) {
            apps.add(started(node, namespace, pod));
        }
        return apps;
    }

    private static Pod nodeModePod(KubeNodeExtension node, String namespace, String name, List<String> command) {
        return new PodBuilder(looping(NodeAgent.app(node, namespace, name, "{claims: [{name: gpu}]}",
                "resourceClaims: [{name: gpu, resourceClaimName: gpu-claim}]", "true"))).editSpec()
                .editFirstContainer().withCommand(command).endContainer().endSpec().build();
    }

    /** app-answers.py asking for the claim's driver view 20 times a second, writing to /answers/answers. */
    private static List<String> command(KubeNodeExtension node) throws IOException {
        return command(node, GETS_PER_SECOND, 0, false);
    }

    /** app-answers.py asking for the claim's driver view (its arguments), writing to /answers/answers. */
    private static List<String> command(KubeNodeExtension node, int getsPerSecond, int longPollers,
            boolean keepAlive) throws IOException {
        String path = "/claims/gpu-claim/gpu/drivers/" + node.node().env.get("driver");
        return List.of("/usr/bin/python3", "-c", Files.readString(SCRIPT), path, "/answers/answers",
                Integer.toString(getsPerSecond), Integer.toString(longPollers), keepAlive ? "1" : "0");
    }

    /** {@code pod} with the answers' emptyDir mounted at /answers in its first container. */
    private static Pod looping(Pod pod) {
        return new PodBuilder(pod).editSpec().withTerminationGracePeriodSeconds(2L)
                .addNewVolume().withName("answers").withNewEmptyDir().endEmptyDir().endVolume()
                .editFirstContainer().addNewVolumeMount().withName("answers").withMountPath("/answers").endVolumeMount()
                .endContainer().endSpec().build();
    }

    /** {@code created} once it is Ready and its app has had its first {@code 200}. */
    private static LoopingApp started(KubeNodeExtension node, String namespace, Pod created) {
        AppPods pods = node.pods();
        Pod running = Eventually.await(AppPods.POD_START, () -> pods.get(created),
                p -> AppPods.running(p, AppPods.APP) && AppPods.ready(p),
                "pod " + namespace + "/" + created.getMetadata().getName() + " Ready");
        LoopingApp app = new LoopingApp(node, namespace, running);
        Eventually.await(AppPods.POD_START, app::answers, a -> a.stream().anyMatch(Answer::ok),
                "the app's first 200");
        return app;
    }

    /** One answer the app recorded (app-answers.py's line). */
    record Answer(String kind, long sentNs, long answeredNs, int status, long generation, String digest) {
        boolean ok() {
            return status == 200;
        }
    }

    /** The wall clock in ns since the epoch, as the app's times are. */
    static long wallNanos() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /**
     * Rewrites the claim's host file in place (truncate and write, as drivers on the v0.36 helper do) with its
     * {@code metadata.generation} one up; returns when it was written (ns) and the new generation.
     */
    long[] rewriteInPlace() throws IOException {
        com.fasterxml.jackson.databind.node.ObjectNode stream =
                (com.fasterxml.jackson.databind.node.ObjectNode) GoOracle.JSON.readTree(Files.readAllBytes(hostFile));
        long generation = stream.get("metadata").get("generation").asLong() + 1;
        ((com.fasterxml.jackson.databind.node.ObjectNode) stream.get("metadata")).put("generation", generation);
        byte[] bytes = GoOracle.JSON.writeValueAsBytes(stream);
        long written = wallNanos();
        Files.write(hostFile, bytes, java.nio.file.StandardOpenOption.WRITE,
                java.nio.file.StandardOpenOption.TRUNCATE_EXISTING);
        return new long[] {written, generation};
    }

    /** The app's first {@code 200} with {@code generation} (or later) answered after {@code sinceNs}. */
    Answer awaitGeneration(long sinceNs, long generation) {
        return Eventually.await(Duration.ofSeconds(30), () -> answers().stream()
                .filter(a -> a.ok() && a.answeredNs() >= sinceNs && a.generation() >= generation).findFirst(),
                java.util.Optional::isPresent, "the app served generation " + generation).orElseThrow();
    }

    /** Every whole line the app has written so far. */
    List<Answer> answers() {
        String text;
        try {
            text = Files.readString(answers, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Answer> all = new ArrayList<>();
        int end = text.lastIndexOf('\n');
        for (String line : text.substring(0, end + 1).split("\n")) {
            String[] f = line.split(" ");
            if (f.length == 6) {
                all.add(new Answer(f[0], Long.parseLong(f[1]), Long.parseLong(f[2]), Integer.parseInt(f[3]),
                        f[4].equals("-") ? -1 : Long.parseLong(f[4]), f[5]));
            }
        }
        return all;
    }

    /** Waits until the app has had {@code 200}s for {@code span} since {@code sinceNs} (wall clock, ns). */
    void awaitAnswersFor(long sinceNs, Duration span) {
        Eventually.await(Duration.ofSeconds(60).plus(span), this::answers, a -> a.stream()
                .anyMatch(x -> x.ok() && x.answeredNs() - sinceNs >= span.toNanos()),
                "the app answered for " + span + " since the fault began");
    }

    /** What the app saw from {@code fromNs} on: the longest time between two answers, and every answer not 200. */
    record Seen(int answers, long longestGapMs, List<Answer> notOk) {
        @Override
        public String toString() {
            return answers + " answers, longest gap " + longestGapMs + " ms, " + notOk.size() + " not 200"
                    + (notOk.isEmpty() ? "" : ": " + notOk.subList(0, Math.min(5, notOk.size())));
        }
    }

    /** What the app saw from {@code fromNs} on (wall clock, ns): its answers, longest gap and answers not 200. */
    Seen seenSince(long fromNs) {
        List<Answer> window = answers().stream().filter(a -> a.answeredNs() >= fromNs).toList();
        long last = fromNs;
        long gap = 0;
        for (Answer a : window) {
            if (a.ok()) {
                gap = Math.max(gap, a.answeredNs() - last);
                last = a.answeredNs();
            }
        }
        return new Seen(window.size(), gap / 1_000_000, window.stream().filter(a -> !a.ok()).toList());
    }

    /** Every status of the pod the API server got since the start, in order. */
    List<Pod> reported() {
        return List.copyOf(reported);
    }

    /** The pod as the API server has it now. */
    Pod now() {
        return node.pods().get(started);
    }

    /**
     * How many {@code probeType} probes (Liveness) of the sidecar kubelet counts as successful since its
     * own start ({@code prober_probe_total} of its {@code /metrics/probes}, through the API server's node proxy); 0
     * when kubelet does not answer.
     */
    long successfulProbes(String probeType) {
        String metrics;
        try {
            metrics = node.client().raw("/api/v1/nodes/" + node.node().env.get("node") + "/proxy/metrics/probes");
        } catch (RuntimeException e) {
            return 0;
        }
        if (metrics == null) {
            return 0;
        }
        String pod = "pod=\"" + started.getMetadata().getName() + "\"";
        return metrics.lines().filter(l -> l.startsWith("prober_probe_total{") && l.contains("container=\""
                + AppPods.SIDECAR + "\"") && l.contains("namespace=\"" + namespace + "\"") && l.contains(pod)
                && l.contains("probe_type=\"" + probeType + "\"") && l.contains("result=\"successful\""))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    /** The container IDs and restart counts of the app and the sidecar: what stays equal when nothing restarts. */
    static String containers(Pod pod) {
        StringBuilder out = new StringBuilder();
        for (String name : List.of(AppPods.SIDECAR, AppPods.APP)) {
            ContainerStatus status = AppPods.status(pod, name);
            out.append(name).append('=').append(status == null ? "none" : status.getContainerID() + "/restarts "
                    + status.getRestartCount() + "/ready " + status.getReady()).append(' ');
        }
        return out.toString().strip();
    }

    /** Stops watching and deletes the pod (its requests would load the node for the tests that follow). */
    @Override
    public void close() {
        watch.close();
        node.client().pods().inNamespace(namespace).withName(started.getMetadata().getName()).withGracePeriod(1)
                .delete();
    }
}
