package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.Eventually;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The agent's memory on the real node while 20 pods (one shared claim: the test driver has 16 devices) each ask it
 * 20 times: its memory cgroup has the manifest's limit and never reaches it.
 */
class AgentMemoryOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    private static final int PODS_COUNT = 20;
    private static NodeAgent agent;
    private static String namespace;
    private static final List<Pod> APPS = new ArrayList<>();

    @BeforeAll
    static void twentyPods() throws Exception {
        agent = NodeAgent.deploy(NODE);
        namespace = NODE.restrictedNamespace("agent-memory", AppPods.optIn());
        NODE.create(namespace, ClaimManifests.GPU_CLAIM_AND_TEMPLATE);
        // Each answer's status, one a line (000: not answered within 30 s): memory measured under refusals would say
        // nothing of the agent serving.
        String script = "for i in $(seq 20); do curl -s -m 30 -o /dev/null -w '%{http_code}\\n' -H \"Authorization: Bearer "
                + "$(cat " + NodeAgent.TOKEN + ")\" \"$DRA_METADATA_URL/claims/gpu-claim/gpu\"; done; echo done";
        List<Pod> submitted = new ArrayList<>();
        for (int i = 0; i < PODS_COUNT; i++) {
            submitted.add(NODE.client().resource(NodeAgent.app(NODE, namespace, "app-" + i, "{claims: [{name: gpu}]}",
                    "resourceClaims: [{name: gpu, resourceClaimName: gpu-claim}]", script)).create());
        }
        for (Pod pod : submitted) {
            APPS.add(NODE.pods().awaitAppRunning(pod));
        }
    }

    @AfterAll
    static void removeThem() throws Exception {
        if (namespace != null) {
            NODE.client().namespaces().withName(namespace).delete();
        }
        if (agent != null) {
            agent.remove();
        }
    }

    @Test
    void theAgentsMemoryStaysInsideItsLimitWithTwentyPodsAsking() throws Exception {
        for (Pod pod : APPS) {
            List<String> lines = Eventually.await(AppPods.POD_START, () -> NODE.pods().log(pod, AppPods.APP),
                    log -> log.stream().anyMatch(l -> l.text().equals("done")), pod.getMetadata().getName() + " done")
                    .stream().map(TimedLine::text).toList();
            assertEquals(Collections.nCopies(20, "200"), lines.subList(0, lines.indexOf("done")),
                    pod.getMetadata().getName() + ": every request answered with its claim");
        }
        Path cgroup = agent.memoryCgroup();
        long limit = Long.parseLong(Files.readString(cgroup.resolve("memory.limit_in_bytes")).strip());
        assertEquals(256L * 1024 * 1024, limit, "the DaemonSet's limit, as kubelet set it on the agent's cgroup");
        long usage = Long.parseLong(Files.readString(cgroup.resolve("memory.usage_in_bytes")).strip());
        long peak = Long.parseLong(Files.readString(cgroup.resolve("memory.max_usage_in_bytes")).strip());
        System.err.printf("[node] agent memory cgroup with %d pods: now %.1f MiB, peak %.1f MiB of %d MiB%n", PODS_COUNT,
                usage / 1048576.0, peak / 1048576.0, limit >> 20);
        assertTrue(peak < limit, "peak " + peak + " below the limit " + limit);
        assertEquals("0", Files.readString(cgroup.resolve("memory.failcnt")).strip(), "never hit the limit");
    }
}
