package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.testsupport.Eventually;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What kubelet does with the sidecar of deploy/kubernetes/base's pod on the real node: a sidecar that does not list
 * the claims lets the app start at once and says why it has no metadata (its startup check and its log name each
 * expected claim absent, with both causes a sidecar cannot tell apart), a killed sidecar is restarted without the app,
 * and at deletion the app ends before the sidecar, which exits 0.
 */
class SidecarLifecycleOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();

    /**
     * No file is mounted into a container that lists no claim, and none can come later (kubelet mounts a container's
     * files when it makes it): the postStart hook returns once the sidecar has looked, the app runs, nothing is
     * restarted, and the app learns why it has no metadata from the sidecar's startup check; the sidecar's log says
     * it too, every WARN naming both causes, once per claim.
     */
    @Test
    void aSidecarThatListsNoClaimLetsTheAppStartAndSaysWhy() throws Exception {
        String namespace = NODE.restrictedNamespace("no-claims", Map.of());
        Pod pod = NODE.pods().basePod(namespace, "no-claims");
        AppPods.container(pod, AppPods.SIDECAR).getResources().setClaims(List.of());
        NODE.client().resource(pod).create();

        Pod running = NODE.pods().awaitAppRunning(pod);
        ContainerStatus sidecar = AppPods.status(running, AppPods.SIDECAR);
        assertEquals(0, sidecar.getRestartCount(), "the postStart hook did not fail: " + sidecar);
        assertTrue(Boolean.TRUE.equals(sidecar.getStarted()), "the sidecar started: " + sidecar);
        assertEquals("{\"claims\":[],\"devices\":\"/devices\"}\n",
                NODE.pods().exec(running, AppPods.APP, "curl", "-fsS", "localhost:8089/claims"), "no claim listed");

        JsonNode started = new ObjectMapper().readTree(NODE.pods().exec(running, AppPods.APP, "curl", "-sS",
                "localhost:9000/q/health/started"));
        assertEquals("UP", started.path("status").asText(), started.toString());
        JsonNode data = started.at("/checks/0/data");
        assertTrue(data.path("problem").asText().contains("does not exist: no metadata file is mounted into this "
                + "container"), data.toString());
        Map<String, String> claims = Map.of("claims/gpu-claim/gpu", "claim gpu-claim",
                "template-claims/my-gpu/gpu", "pod claim my-gpu (spec.resourceClaims[].name of a template claim)");
        for (Map.Entry<String, String> claim : claims.entrySet()) {
            String state = data.path(claim.getKey()).asText();
            assertTrue(state.startsWith("absent: no metadata for " + claim.getValue()), claim.getKey() + ": " + state);
            assertTrue(state.contains("either the sidecar container does not list " + claim.getValue()
                    + " in its own resources.claims (kubelet mounts only the claims a container lists), or its driver "
                    + "writes no metadata file"), claim.getKey() + ": " + state);
        }

        List<String> warnings = Eventually.await(Duration.ofSeconds(60), () -> sidecarLogs(namespace, "no-claims")
                .lines().filter(l -> l.contains(" WARN ")).toList(),
                w -> w.stream().filter(l -> l.contains("Expected claim ")).count() == 2, "a WARN per expected claim");
        for (String warning : warnings) {
            assertTrue(warning.contains("resources.claims") && warning.contains("write") && warning.contains(
                    "no metadata file"), "every WARN names both causes: " + warning);
        }
        assertTrue(warnings.stream().anyMatch(w -> w.contains("does not exist: no metadata file is mounted into this "
                + "container")), "the log says what README's troubleshooting names (metadata root does not exist): "
                + warnings);
    }

    /** The sidecar's log and that of its previous run, as far as kubelet still has them (it restarts and removes). */
    private static String sidecarLogs(String namespace, String pod) {
        StringBuilder logs = new StringBuilder();
        for (boolean previous : new boolean[] {false, true}) {
            try {
                var container = NODE.client().pods().inNamespace(namespace).withName(pod).inContainer(AppPods.SIDECAR);
                logs.append(previous ? container.terminated().getLog() : container.getLog()).append('\n');
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                // that run is not started yet, or gone
            }
        }
        return logs.toString();
    }

    @Test
    void aKilledSidecarIsRestartedAloneAndTheAppIsAnsweredAgain() throws Exception {
        String namespace = NODE.restrictedNamespace("sigkill", Map.of());
        Pod pod = NODE.pods().basePod(namespace, "sigkill");
        NODE.client().resource(pod).create();
        Pod running = NODE.pods().awaitAppRunning(pod);

        String sidecarId = AppPods.status(running, AppPods.SIDECAR).getContainerID().replaceFirst("^containerd://", "");
        long pid = NODE.pods().hostPid(sidecarId);
        new ProcessBuilder("kill", "-KILL", Long.toString(pid)).inheritIO().start().waitFor(10, TimeUnit.SECONDS);

        Pod restarted = Eventually.await(AppPods.POD_START, () -> NODE.pods().get(running), p -> {
            ContainerStatus sidecar = AppPods.status(p, AppPods.SIDECAR);
            return sidecar.getRestartCount() == 1 && Boolean.TRUE.equals(sidecar.getReady());
        }, "kubelet restarted the sidecar and reported it ready again (its postStart hook returned)");
        ContainerStatus sidecar = AppPods.status(restarted, AppPods.SIDECAR);
        assertEquals(137, sidecar.getLastState().getTerminated().getExitCode(), "the sidecar was SIGKILLed");
        ContainerStatus app = AppPods.status(restarted, AppPods.APP);
        assertEquals(0, app.getRestartCount(), "the app was not restarted");
        assertNotNull(app.getState().getRunning(), "the app keeps running");
        String answer = NODE.pods().exec(restarted, AppPods.APP, "curl", "-fsS", "localhost:8089/claims/gpu-claim/gpu");
        assertTrue(answer.contains("\"requests\""), "the app's next request is answered: " + answer);
    }

    @Test
    void atDeletionTheAppEndsFirstThenTheSidecarWhichExitsZero() throws Exception {
        String namespace = NODE.restrictedNamespace("deletion", Map.of());
        Pod pod = NODE.pods().basePod(namespace, "deletion");
        pod.getSpec().setTerminationGracePeriodSeconds(5L);
        NODE.client().resource(pod).create();
        Pod running = NODE.pods().awaitAppRunning(pod);

        NODE.client().resource(running).withGracePeriod(5).delete();
        Pod last = running;
        java.time.Instant sidecarStopped = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            Pod now = NODE.pods().get(running);
            if (now == null) {
                break;
            }
            last = now;
            if (sidecarStopped == null) {
                try {
                    sidecarStopped = NODE.pods().log(now, AppPods.SIDECAR).stream()
                            .filter(line -> line.text().contains("stopped in")).map(TimedLine::time)
                            .findFirst().orElse(null);
                } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                    // the container is being removed
                }
            }
            if (AppPods.status(now, AppPods.APP).getState().getTerminated() != null
                    && AppPods.status(now, AppPods.SIDECAR).getState().getTerminated() != null) {
                break;
            }
            Thread.sleep(50);
        }
        ContainerStatus app = AppPods.status(last, AppPods.APP);
        ContainerStatus sidecar = AppPods.status(last, AppPods.SIDECAR);
        assertNotNull(app.getState().getTerminated(), "the app ended: " + app);
        assertNotNull(sidecar.getState().getTerminated(), "the sidecar ended: " + sidecar);
        assertNotNull(sidecarStopped, "the sidecar logged its stop");
        java.time.Instant appFinished = java.time.Instant.parse(app.getState().getTerminated().getFinishedAt());
        // finishedAt has whole seconds: the app ended within the second it names, the sidecar stopped after it.
        assertFalse(sidecarStopped.isBefore(appFinished), "the sidecar stopped (" + sidecarStopped
                + ") after the app ended (" + appFinished + ")");
        assertEquals(0, sidecar.getState().getTerminated().getExitCode(), "the sidecar's exit status on SIGTERM");
        Eventually.await(Duration.ofSeconds(60), () -> NODE.pods().get(running), p -> p == null, "the pod gone");
        assertNull(NODE.pods().get(running));
    }
}
