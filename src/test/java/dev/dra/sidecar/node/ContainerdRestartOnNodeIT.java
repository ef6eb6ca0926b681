package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.Eventually;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * containerd stopped (SIGTERM) and started again with the same state while an injected pod's app requests its
 * claim 20 times a second: the containers keep running (their shims hold them), the app is answered throughout,
 * once containerd is back kubelet reports the pod as before (Ready, same containers, no restart), and a new pod
 * starts with its sidecar.
 */
class ContainerdRestartOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    private static final Duration DOWN = Duration.ofSeconds(3);

    @Test
    void theContainersRunOnAndAreServedAndANewPodStartsOnceContainerdIsBack() throws Exception {
        try (LoopingApp app = LoopingApp.start(NODE, "containerd-restart")) {
            Pod running = app.now();
            String before = LoopingApp.containers(running);
            List<Long> pids = List.of(pid(running, AppPods.SIDECAR), pid(running, AppPods.APP));
            long fault = LoopingApp.wallNanos();
            NODE.node().component("stop", "containerd");
            try {
                app.awaitAnswersFor(fault, DOWN);
                for (long pid : pids) {
                    assertTrue(Files.exists(Path.of("/proc", Long.toString(pid))), "container process " + pid
                            + " runs while containerd is down");
                }
            } finally {
                NODE.node().component("start", "containerd");
            }
            long back = LoopingApp.wallNanos();
            List<Long> again = Eventually.await(Duration.ofSeconds(60), () -> {
                try {
                    return List.of(pid(running, AppPods.SIDECAR), pid(running, AppPods.APP));
                } catch (Exception e) {
                    return List.<Long>of();   // containerd not answering yet, or its tasks not loaded yet
                }
            }, p -> !p.isEmpty(), "containerd answering with the pod's tasks");
            assertEquals(pids, again, "containerd knows the same container processes again");

            // A new pod started: kubelet works with the new containerd, and has seen the old pod's containers again.
            long second = System.nanoTime();
            try (LoopingApp next = LoopingApp.start(NODE, "after-containerd")) {
                System.err.printf("[node] a new pod Ready with its sidecar's first answer %d ms after containerd was"
                        + " back%n", (System.nanoTime() - second) / 1_000_000);
                assertTrue(next.seenSince(0).answers() > 0);
            }
            Pod after = app.now();
            LoopingApp.Seen seen = app.seenSince(fault);
            System.err.printf("[node] containerd stopped %d ms: the app saw %s%n", (back - fault) / 1_000_000, seen);
            assertEquals(List.of(), seen.notOk(), "every answer 200: " + seen);
            assertTrue(seen.longestGapMs() < LoopingApp.MAX_GAP_MS, "answered throughout: " + seen);
            assertEquals(before, LoopingApp.containers(after), "kubelet reports the pod as before: neither container"
                    + " restarted");
            assertTrue(AppPods.ready(after), "the pod Ready");
            List<Pod> reported = app.reported();
            assertTrue(reported.stream().allMatch(AppPods::ready), "Ready in every status reported: "
                    + reported.stream().map(LoopingApp::containers).toList());
        }
    }

    private static long pid(Pod pod, String container) throws Exception {
        return NODE.pods().hostPid(AppPods.status(pod, container).getContainerID().replaceFirst("^containerd://", ""));
    }
}
