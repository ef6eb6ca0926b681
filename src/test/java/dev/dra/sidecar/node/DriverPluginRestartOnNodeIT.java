package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.Eventually;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The DRA driver's kubelet plugin (upstream's test driver) stopped (SIGTERM) and started again while an injected
 * pod's app requests its claim 20 times a second: the pod keeps its file and the app is answered throughout, and a
 * new pod's claim is prepared by the restarted plugin (once it has registered with kubelet again) and served by
 * that pod's sidecar.
 */
class DriverPluginRestartOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    private static final Duration DOWN = Duration.ofSeconds(3);
    /** kubelet's plugin watcher sees the new socket at once and registers it within its reconciler's second. */
    private static final Duration REGISTERED_WITHIN = Duration.ofSeconds(30);

    @Test
    void existingPodsKeepTheirFilesAndANewClaimIsPreparedByTheRestartedPlugin() throws Exception {
        try (LoopingApp app = LoopingApp.start(NODE, "plugin-restart")) {
            String before = LoopingApp.containers(app.now());
            byte[] file = Files.readAllBytes(app.hostFile);
            long registered = NODE.node().driverRegistrations();
            long fault = LoopingApp.wallNanos();
            NODE.node().component("stop", "test-driver");
            try {
                app.awaitAnswersFor(fault, DOWN);
            } finally {
                NODE.node().component("start", "test-driver");
            }
            long back = System.nanoTime();
            Eventually.awaitTrue(REGISTERED_WITHIN, "kubelet registers the restarted plugin (target/kube-node/kubelet.log)",
                    () -> NODE.node().driverRegistrations() > registered);
            try (LoopingApp next = LoopingApp.start(NODE, "after-plugin")) {
                System.err.printf("[node] a new pod's claim prepared by the restarted plugin and served %d ms after"
                        + " its start%n", (System.nanoTime() - back) / 1_000_000);
                assertTrue(Files.exists(next.hostFile), "the restarted plugin wrote the new claim's file");
            }
            app.awaitAnswersFor(fault, DOWN.plusSeconds(1));
            LoopingApp.Seen seen = app.seenSince(fault);
            System.err.printf("[node] test-driver restarted: the app saw %s%n", seen);
            assertEquals(List.of(), seen.notOk(), "every answer 200: " + seen);
            assertTrue(seen.longestGapMs() < LoopingApp.MAX_GAP_MS, "answered throughout: " + seen);
            assertTrue(java.util.Arrays.equals(file, Files.readAllBytes(app.hostFile)), "the pod's file kept as it was");
            Pod after = app.now();
            assertEquals(before, LoopingApp.containers(after), "neither container restarted");
            assertTrue(AppPods.ready(after));
        }
    }
}
