package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.Eventually;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kubelet stopped (SIGTERM, as for an upgrade or a configuration change) and started again with the same state
 * while an injected pod's app requests its claim 20 times a second: the app is answered throughout, a rewrite in
 * place of the claim's file on the host while kubelet is down is served at once, the new kubelet probes the
 * sidecar's liveness again, and every status it reports is the one before: Ready, neither container restarted. The
 * sidecar has no readiness probe, which kubelet 1.37 would report not passed from its own start until the probe's
 * first run (docs/reliability.md).
 */
class KubeletRestartOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    private static final Duration DOWN = Duration.ofSeconds(3);

    @Test
    void thePodRunsOnAndIsServedWhileKubeletIsDownAndKubeletReportsItAsBefore() throws Exception {
        try (LoopingApp app = LoopingApp.start(NODE, "kubelet-restart")) {
            String before = LoopingApp.containers(app.now());
            long fault = LoopingApp.wallNanos();
            NODE.node().component("stop", "kubelet");
            long[] written;
            LoopingApp.Answer served;
            try {
                written = app.rewriteInPlace();
                served = app.awaitGeneration(written[0], written[1]);
                app.awaitAnswersFor(fault, DOWN);
            } finally {
                NODE.node().component("start", "kubelet");
            }
            long back = LoopingApp.wallNanos();
            Duration probed = Eventually.awaitTrue(Duration.ofSeconds(60), "kubelet probing the sidecar again",
                    () -> app.successfulProbes("Liveness") >= 1);
            Pod after = Eventually.await(Duration.ofSeconds(30), app::now,
                    p -> LoopingApp.containers(p).equals(before) && AppPods.ready(p), "kubelet reporting the pod");
            LoopingApp.Seen seen = app.seenSince(fault);
            System.err.printf("[node] kubelet stopped %d ms: the app saw %s; the rewrite served %d ms after it was"
                    + " written; probes again %d ms after the start%n", (back - fault) / 1_000_000, seen,
                    (served.answeredNs() - written[0]) / 1_000_000, probed.toMillis());

            assertEquals(List.of(), seen.notOk(), "every answer 200: " + seen);
            assertTrue(seen.longestGapMs() < LoopingApp.MAX_GAP_MS, "answered throughout: " + seen);
            assertTrue(served.answeredNs() < back, "the rewrite was served while kubelet was down");
            assertEquals(before, LoopingApp.containers(after), "neither container restarted");
            List<String> reported = app.reported().stream().map(LoopingApp::containers).toList();
            System.err.printf("[node] kubelet restart: %d statuses reported%n", reported.size());
            assertTrue(before.contains("/ready true"), "the sidecar was ready before: " + before);
            assertEquals(List.of(), reported.stream().filter(c -> !c.equals(before)).toList(),
                    "every status reported: the same containers, no restart, both ready");
        }
    }
}
