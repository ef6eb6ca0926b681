package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.GoOracle;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The cluster changed to another Kubernetes release under running pods and back, as an upgrade or a downgrade changes
 * it: each Kubernetes command of the release named by {@value #OTHER} (one of src/test/kube-node/releases, or the
 * node's own 1.37) that differs from the node's is stopped (SIGTERM) and started again on the same state with that
 * release's binary, then with the node's own again. Upward the control plane (kube-apiserver, kube-controller-manager,
 * kube-scheduler) goes first and the node (kubelet, kube-proxy and the DRA driver's kubelet plugin) after it; downward
 * the other way round, so that kubelet is never newer than its API server. Throughout, an injected sidecar pod and a
 * node-mode pod, each app requesting its claim 20 times a second, are answered {@code 200} (the longest gap reported)
 * and keep their containers; after each change a new pod is served the file that release's driver wrote (its
 * apiVersion as the file on the host has it).
 *
 * <p>It runs where {@value #OTHER} is set (the release-matrix workflow sets it; its last results are in
 * docs/kubernetes-releases.md): it needs another release's build, too long for every CI run.
 */
class NodeUpgradeOnNodeIT {

    /** The environment variable naming the release to change to and back from, e.g. {@code 1.36}. */
    static final String OTHER = "DRA_KUBE_UPGRADE";

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    private static final Duration REGISTERED = Duration.ofSeconds(90);
    private static final String ROUTE = "/claims/gpu-claim/gpu";
    private static final List<String> CONTROL_PLANE = List.of("kube-apiserver", "kube-controller-manager",
            "kube-scheduler");
    private static final List<String> NODE_COMMANDS = List.of("kubelet", "kube-proxy", "test-driver");

    @Test
    void runningPodsAreAnsweredThroughTheClustersChangeToAnotherReleaseAndBack() throws Exception {
        String other = System.getenv(OTHER);
        assumeTrue(other != null && !other.isEmpty(), "set " + OTHER + "=<release> to change the cluster to that"
                + " release and back (the release-matrix workflow does)");
        String ownVersion = NODE.node().env.get("release");
        String otherVersion = KubeNode.releaseVersion(other);
        Map<String, Binary> own = new LinkedHashMap<>();
        Map<String, Binary> theirs = new LinkedHashMap<>();
        for (String command : concat(CONTROL_PLANE, NODE_COMMANDS)) {
            own.put(command, new Binary(Path.of(NODE.node().env.get(command.replace('-', '_'))),
                    command.equals("kubelet") ? NODE.node().env.get("kubelet_release") : ownVersion));
            Path candidate = KubeNode.releaseCommand(other, command);
            theirs.put(command, Files.isExecutable(candidate) ? new Binary(candidate, otherVersion) : own.get(command));
        }
        boolean upward = compare(otherVersion, ownVersion) > 0;

        try (LoopingApp sidecar = LoopingApp.start(NODE, "upgrade-sidecar")) {
            NodeAgent agent = NodeAgent.deploy(NODE);
            try (LoopingApp nodeMode = LoopingApp.startNodeMode(NODE, "upgrade-agent")) {
                String sidecarBefore = LoopingApp.containers(sidecar.now());
                String nodeModeBefore = LoopingApp.containers(nodeMode.now());
                long from = LoopingApp.wallNanos();
                String there = change(own, theirs, upward ? CONTROL_PLANE : NODE_COMMANDS,
                        upward ? NODE_COMMANDS : CONTROL_PLANE, "there");
                String back = change(theirs, own, upward ? NODE_COMMANDS : CONTROL_PLANE,
                        upward ? CONTROL_PLANE : NODE_COMMANDS, "back");
                LoopingApp.Seen sidecarSeen = sidecar.seenSince(from);
                LoopingApp.Seen nodeModeSeen = nodeMode.seenSince(from);
                System.err.printf("[node] %s -> %s -> %s under running pods: the sidecar's app saw %s; the node-mode"
                        + " app saw %s; new pods served %s, then %s%n", ownVersion, otherVersion, ownVersion,
                        sidecarSeen, nodeModeSeen, there, back);

                assertEquals(List.of(), sidecarSeen.notOk(), "the sidecar's app: every answer 200: " + sidecarSeen);
                assertEquals(List.of(), nodeModeSeen.notOk(), "the node-mode app: every answer 200: " + nodeModeSeen);
                assertTrue(sidecarSeen.longestGapMs() < LoopingApp.MAX_GAP_MS, "answered throughout: " + sidecarSeen);
                assertTrue(nodeModeSeen.longestGapMs() < LoopingApp.MAX_GAP_MS, "answered throughout: " + nodeModeSeen);
                assertEquals(sidecarBefore, LoopingApp.containers(sidecar.now()), "no container restarted");
                assertEquals(nodeModeBefore, LoopingApp.containers(nodeMode.now()), "no container restarted");
            } finally {
                agent.remove();
            }
        }
    }

    /**
     * Changes each command of {@code first}, then of {@code second}, whose binary differs between {@code from} and
     * {@code to}, to {@code to}'s; waits until the API server and kubelet report their new versions and kubelet
     * registered the driver again, then serves a new node-mode pod its claim. Returns what was served: the claim's
     * file's apiVersion and the releases that ran.
     */
    private static String change(Map<String, Binary> from, Map<String, Binary> to, List<String> first,
            List<String> second, String prefix) throws Exception {
        KubeNode node = NODE.node();
        // Counted once the driver's old plugin has stopped, so that only its new plugin's registration counts: a
        // kubelet started again just before registers the old one anew.
        long registrations = node.driverRegistrations();
        for (String command : concat(first, second)) {
            if (from.get(command).equals(to.get(command))) {
                continue;
            }
            if (command.equals("kube-apiserver")) {
                node.restartApiServerFrom(to.get(command).path());
            } else {
                node.component("stop", command);
                if (command.equals("test-driver")) {
                    registrations = node.driverRegistrations();
                }
                node.startFrom(command, to.get(command).path().getParent());
            }
        }
        String apiServer = Eventually.await(REGISTERED, () -> NODE.client().getKubernetesVersion().getGitVersion(),
                version -> version.equals(to.get("kube-apiserver").version()), "the API server's new version");
        String kubelet = Eventually.await(REGISTERED, () -> NODE.client().nodes().withName(node.env.get("node")).get()
                .getStatus().getNodeInfo().getKubeletVersion(), version -> version.equals(to.get("kubelet").version()),
                "the node's kubelet version");
        if (!from.get("test-driver").equals(to.get("test-driver"))) {
            long before = registrations;
            Eventually.awaitTrue(REGISTERED, "kubelet registers the driver's new plugin",
                    () -> node.driverRegistrations() > before);
        }

        String namespace = NODE.restrictedNamespace("upgrade-" + prefix, AppPods.optIn());
        NODE.create(namespace, ClaimManifests.GPU_CLAIM);
        Pod pod = NODE.pods().awaitAppRunning(NODE.client().resource(NodeAgent.app(NODE, namespace, "new",
                "{claims: [{name: gpu}]}", "resourceClaims: [{name: gpu, resourceClaimName: gpu-claim}]",
                "true")).create());
        String written = GoOracle.JSON.readTree(Files.readAllBytes(NODE.pods().hostFile(namespace, "gpu-claim",
                "gpu"))).path("apiVersion").asText();
        String headers = Eventually.await(REGISTERED, () -> headers(pod), h -> h.startsWith("HTTP/1.1 200"),
                "the new pod served on kubelet " + kubelet);
        assertTrue(headers.contains("Metadata-Source-Version: " + written), "served as the driver wrote it ("
                + written + "): " + headers);
        NODE.client().namespaces().withName(namespace).delete();
        return written + " (API server " + apiServer + ", kubelet " + kubelet + ")";
    }

    /** A Kubernetes command's binary and the k8s.io/kubernetes version it was built from. */
    private record Binary(Path path, String version) {}

    /** The agent's answer's head to the pod's request for {@link #ROUTE}, asked from its app container. */
    private static String headers(Pod pod) {
        try {
            return NODE.pods().exec(pod, AppPods.APP, "sh", "-c", "curl -s -o /dev/null -D - -H \"Authorization:"
                    + " Bearer $(cat " + NodeAgent.TOKEN + ")\" \"$DRA_METADATA_URL" + ROUTE + "\"");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static int compare(String a, String b) {
        return Integer.compare(minor(a), minor(b));
    }

    private static int minor(String version) {
        return Integer.parseInt(version.split("\\.")[1]);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
