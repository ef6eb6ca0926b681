package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check that a node left nothing behind, which start.sh runs after every stop ({@link KubeNode#close()} fails
 * when it names anything), can fail: run against the running node it names each kind of thing a node makes; and a
 * start.sh killed outright (SIGKILL, no trap runs) leaves such things, which the next start lists, removes and
 * checks before the node is usable again.
 */
class NodeLeftoversOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    private static final Path TEARDOWN = KubeNode.SCRIPTS.resolve("teardown.sh");
    /** A chain named like the CNI plugins' (the node itself adds no iptables rule). */
    private static final String PLANTED_CHAIN = "CNI-LEFTOVER-CHECK";
    private static final String CHANGED_SYSCTL = "kernel/panic";

    @Test
    void theCheckNamesWhatARunningNodeHas(@TempDir Path work) throws Exception {
        String namespace = NODE.restrictedNamespace("leftovers", Map.of());
        Pod pod = NODE.pods().awaitAppRunning(create(NODE.pods().basePod(namespace, "leftovers")));
        long sidecarPid = NODE.pods().hostPid(AppPods.status(pod, AppPods.SIDECAR).getContainerID()
                .replaceFirst("^containerd://", ""));
        // A start's record of the host, then what the comparisons with it must find: a rule added since, a value
        // that differs (in the record: the host's own sysctls are not touched).
        Path before = work.resolve("host-before");
        bash("source " + TEARDOWN + " && snapshot_host " + before);
        String panic = Files.readString(Path.of("/proc/sys", CHANGED_SYSCTL)).strip();
        String recorded = Files.readString(before.resolve("sysctls"), StandardCharsets.UTF_8)
                .replace(CHANGED_SYSCTL + "=" + panic + "\n", CHANGED_SYSCTL + "=" + (Long.parseLong(panic) + 1) + "\n");
        Files.writeString(before.resolve("sysctls"), recorded);
        bash("iptables -N " + PLANTED_CHAIN);
        List<String> left;
        try {
            left = bash("bash " + TEARDOWN + " leftovers " + before).lines().toList();
        } finally {
            bash("iptables -X " + PLANTED_CHAIN);
        }
        String all = String.join("\n", left);
        for (String expected : List.of("link dra-node0", "link dra-cni0", "route unreachable 198.18.0.0/15",
                "directory /var/lib/kubelet", "directory /var/lib/dra-test-node", "cgroup /sys/fs/cgroup/memory/kubepods",
                "iptables ip filter :" + PLANTED_CHAIN + " -",
                "sysctl " + CHANGED_SYSCTL + ": " + (Long.parseLong(panic) + 1) + " at the start, " + panic + " now")) {
            assertTrue(left.contains(expected), "the check names \"" + expected + "\":\n" + all);
        }
        String uid = pod.getMetadata().getUid();
        assertTrue(left.stream().anyMatch(l -> l.startsWith("mount /var/lib/kubelet/pods/" + uid + "/")),
                "the check names the pod's volume mounts:\n" + all);
        assertTrue(left.stream().anyMatch(l -> l.startsWith("CDI spec /var/run/cdi/" + NODE.node().env.get("driver"))),
                "the check names the driver's CDI spec of the pod's claim:\n" + all);
        for (String process : List.of("/bin/kubelet ", "/bin/containerd ", "/bin/test-driver ", "/bin/kube-apiserver ",
                "/bin/etcd ", "containerd-shim-runc-v2 ")) {
            assertTrue(left.stream().anyMatch(l -> l.startsWith("process ") && l.contains(process)),
                    "the check names the node's process " + process + ":\n" + all);
        }
        assertTrue(left.stream().anyMatch(l -> l.startsWith("process " + sidecarPid + ": ")),
                "the check names the sidecar container's process (host pid " + sidecarPid + "):\n" + all);
    }

    @Test
    void aNodeKilledOutrightIsCleanedUpByTheNextStart() throws Exception {
        String namespace = NODE.restrictedNamespace("killed", Map.of());
        NODE.pods().awaitAppRunning(create(NODE.pods().basePod(namespace, "before-the-kill")));

        String start = NODE.killAndRestart();

        assertTrue(start.contains("an earlier node did not end cleanly; removing what it left:"), start);
        String found = start.substring(start.indexOf("removing what it left:"));
        for (String expected : List.of("  link dra-node0", "  route unreachable 198.18.0.0/15", "  CDI spec /var/run/cdi/",
                "  mount /var/lib/kubelet/pods/")) {
            assertTrue(found.contains(expected), "the next start found \"" + expected + "\" left by the killed one:\n"
                    + start);
        }
        assertTrue(found.lines().anyMatch(l -> l.startsWith("  process ") && l.contains("containerd-shim-runc-v2")),
                "the killed node's pods outlived it (their shims), and the next start found them:\n" + start);
        assertTrue(!start.contains("could not be removed"), start);
        // The new node is usable, its start having checked that nothing of the old one was left.
        String again = NODE.restrictedNamespace("after-the-kill", Map.of());
        Pod pod = NODE.pods().awaitAppRunning(create(NODE.pods().basePod(again, "after-the-kill")));
        assertEquals("Running", pod.getStatus().getPhase());
    }

    /** Creates the pod with a memory-backed volume in its app container, so that kubelet mounts one for it. */
    private static Pod create(Pod pod) {
        pod.getSpec().getVolumes().add(new VolumeBuilder().withName("scratch").withNewEmptyDir().withMedium("Memory")
                .withSizeLimit(new Quantity("1Mi")).endEmptyDir().build());
        AppPods.container(pod, AppPods.APP).getVolumeMounts().add(new VolumeMountBuilder().withName("scratch")
                .withMountPath("/scratch").build());
        NODE.client().resource(pod).create();
        return pod;
    }

    /** Runs {@code script} with bash; its stdout, once it exited 0. */
    private static String bash(String script) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("bash", "-c", script).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), script);
        assertEquals(0, process.exitValue(), script + ": " + out);
        return out;
    }
}
