package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.Eventually;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What kubelet does with the sidecar of deploy/kubernetes/base's pod on the real node: a sidecar that does not list
 * the claims keeps the app from ever starting (its postStart hook fails and says why), a killed sidecar is restarted
 * without the app, and at deletion the app ends before the sidecar, which exits 0.
 */
class SidecarLifecycleOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    /** The seconds the no-claims pod's postStart hook gives the sidecar to start (the manifests give 120). */
    private static final String START_TIMEOUT_SECONDS = "8";
    /** After the first failure: kubelet's back-off, the restarted sidecar and its second hook, which fails too. */
    private static final Duration HELD_BACK = Duration.ofSeconds(20);

    @Test
    void aSidecarThatListsNoClaimNeverLetsTheAppStartAndSaysWhy() throws Exception {
        String namespace = NODE.restrictedNamespace("no-claims", Map.of());
        Pod pod = NODE.pods().basePod(namespace, "no-claims");
        AppPods.container(pod, AppPods.SIDECAR).getResources().setClaims(List.of());
        List<String> hook = AppPods.container(pod, AppPods.SIDECAR).getLifecycle().getPostStart().getExec().getCommand();
        hook.set(hook.size() - 1, START_TIMEOUT_SECONDS);
        NODE.client().resource(pod).create();

        // Kubelet reports the sidecar only once its postStart hook has ended: here when it failed.
        Pod failed = Eventually.await(AppPods.POD_START, () -> NODE.pods().get(pod), p -> {
            ContainerStatus sidecar = AppPods.status(p, AppPods.SIDECAR);
            return sidecar != null && sidecar.getRestartCount() >= 1 && sidecar.getLastState().getTerminated() != null;
        }, "the sidecar's postStart hook failed and kubelet restarted the sidecar");
        long deadline = System.nanoTime() + HELD_BACK.toNanos();
        while (System.nanoTime() < deadline) {
            ContainerStatus app = AppPods.status(NODE.pods().get(failed), AppPods.APP);
            assertTrue(app == null || app.getState().getRunning() == null && app.getContainerID() == null,
                    "the app container was never created: " + app);
            Thread.sleep(500);
        }
        List<String> events = NODE.client().v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> "no-claims".equals(e.getInvolvedObject().getName())).map(Event::getMessage).toList();
        assertTrue(events.contains("PostStartHook failed"), "the pod's events say the sidecar's postStart hook failed: "
                + events);
        String message = AppPods.status(failed, AppPods.SIDECAR).getLastState().getTerminated().getMessage();
        assertTrue(message != null && message.startsWith("the sidecar did not start within " + START_TIMEOUT_SECONDS
                + " s; /q/health/started on port 9000 answered: HTTP/1.1 503 Service Unavailable")
                && message.contains("does not list the claim in its own resources.claims"),
                "the sidecar's last state (kubectl describe pod) says why: " + message);
        Eventually.await(Duration.ofSeconds(60), () -> sidecarLogs(namespace, "no-claims"),
                log -> log.contains("does not exist: no claim is visible to this container"),
                "the sidecar's log saying what README's troubleshooting names (metadata root does not exist)");
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
