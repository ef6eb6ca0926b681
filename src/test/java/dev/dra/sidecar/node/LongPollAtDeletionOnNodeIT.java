package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.Eventually;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * At a pod's deletion the sidecar answers the long polls that wait on it (docs/api.md, "Caching and long polls":
 * at once, a normal {@code 200} with the current representation and its ETag) and exits 0. The client is a second
 * native sidecar declared before ours: kubelet stops sidecars in the reverse order of their declaration, after the
 * app, so it is still running, its long poll waiting, when ours gets SIGTERM.
 */
class LongPollAtDeletionOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    private static final String POLLER = "long-poller";
    /** How long after its container's end kubelet may take to close a followed log. */
    private static final Duration LOG_END = Duration.ofSeconds(30);
    /** Holds the deleted pod, and so its containers' statuses, until the test has read them. */
    private static final String HOLD = "dra-metadata-sidecar.test/read-statuses-first";
    /** Retries until the sidecar answers, logs that answer, then waits on it with the README's long poll. */
    private static final String POLL = """
            url=http://127.0.0.1:8089/claims/gpu-claim/gpu
            until first=$(curl -fsS -i "$url" 2>/dev/null); do sleep 0.2; done
            first=$(printf '%s' "$first" | tr -d '\\r')
            etag=$(printf '%s\\n' "$first" | sed -n 's/^[Ee][Tt]ag: //p')
            echo "first status: $(printf '%s\\n' "$first" | head -1)"
            echo "first body: $(printf '%s\\n' "$first" | sed '1,/^$/d')"
            echo "waiting, lastEtag $etag"
            answer=$(curl -sS -i --get "$url" --data waitForChange=true --data timeoutSeconds=300 \\
              --data-urlencode "lastEtag=$etag" 2>&1 | tr -d '\\r')
            echo "answer status: $(printf '%s\\n' "$answer" | head -1)"
            echo "answer etag: $(printf '%s\\n' "$answer" | sed -n 's/^[Ee][Tt]ag: //p')"
            echo "answer body: $(printf '%s\\n' "$answer" | sed '1,/^$/d')"
            trap 'exit 0' TERM
            while true; do sleep 1; done
            """;

    @Test
    void aLongPollWaitingAtDeletionIsAnsweredWithTheCurrentMetadataAndTheSidecarExitsZero() throws Exception {
        String namespace = NODE.restrictedNamespace("long-poll", Map.of());
        Pod pod = NODE.pods().basePod(namespace, "long-poll");
        pod.getMetadata().setFinalizers(List.of(HOLD));
        pod.getSpec().setTerminationGracePeriodSeconds(10L);
        Container poller = new ContainerBuilder().withName(POLLER).withImage(NODE.appImage())
                .withImagePullPolicy("Never").withRestartPolicy("Always").withCommand("/bin/sh", "-c", POLL)
                .withNewSecurityContext().withAllowPrivilegeEscalation(false).withNewCapabilities().withDrop("ALL")
                .endCapabilities().endSecurityContext().build();
        pod.getSpec().getInitContainers().add(0, poller);
        NODE.client().resource(pod).create();
        try {
            Pod running = NODE.pods().awaitAppRunning(pod);
            List<TimedLine> before = NODE.pods().awaitLog(running, POLLER, 3);
            assertEquals("first status: HTTP/1.1 200 OK", before.get(0).text(), "the sidecar answered the poller");
            String etag = before.get(2).text().replaceFirst("^waiting, lastEtag ", "");
            assertTrue(etag.startsWith("\""), "the poller waits with the ETag it got: " + before);
            // The poller has logged that it is about to wait; the sidecar's gauge says when its request arrived.
            Eventually.await(AppPods.POD_START, () -> waiters(running), "dra_long_poll_waiters 1.0"::equals,
                    "the sidecar's gauge counting the poller's long poll");

            // Followed from now on: kubelet removes a deleted pod's containers, logs and all, soon after they end.
            try (FollowedLog pollerLog = NODE.pods().follow(running, POLLER);
                    FollowedLog sidecarFollowed = NODE.pods().follow(running, AppPods.SIDECAR)) {
                NODE.client().resource(running).delete();
                Pod ended = Eventually.await(Duration.ofSeconds(60), () -> NODE.pods().get(running), p -> terminated(p, AppPods.APP)
                        && terminated(p, AppPods.SIDECAR) && terminated(p, POLLER), "the pod's three containers ended");

                List<TimedLine> log = pollerLog.lines(LOG_END);
                String all = String.join("\n", log.stream().map(TimedLine::text).toList());
                assertEquals("answer status: HTTP/1.1 200 OK", line(log, "answer status: ").text(), all);
                assertEquals("answer etag: " + etag, line(log, "answer etag: ").text(), "the same ETag: nothing changed\n" + all);
                assertEquals(line(log, "first body: ").text().replaceFirst("^first ", ""),
                        line(log, "answer body: ").text().replaceFirst("^answer ", ""),
                        "the answer is the current representation\n" + all);
                ContainerStatus app = AppPods.status(ended, AppPods.APP);
                Instant appFinished = Instant.parse(app.getState().getTerminated().getFinishedAt());
                Instant answered = line(log, "answer status: ").time();
                // finishedAt has whole seconds: the answer came after the app had ended, when the sidecar was stopped.
                assertTrue(!answered.isBefore(appFinished), "the poll was answered at " + answered
                        + ", after the app ended at " + appFinished);
                System.err.printf("[node] long poll waiting %d ms, answered \"%s\" %d ms after the app's finishedAt%n",
                        Duration.between(before.get(2).time(), answered).toMillis(), line(log, "answer status: ").text(),
                        Duration.between(appFinished, answered).toMillis());
                String sidecarLog = String.join("\n", sidecarFollowed.lines(LOG_END).stream()
                        .map(TimedLine::text).toList());
                assertTrue(sidecarLog.contains("Stopping: answered 1 long poll(s) with the current metadata"),
                        "the sidecar says it answered the waiting poll as it stopped:\n" + sidecarLog);
                assertEquals(0, AppPods.status(ended, AppPods.SIDECAR).getState().getTerminated().getExitCode(),
                        "the sidecar's exit status on SIGTERM");
            }
        } finally {
            // A merge patch, not a read-modify-write: kubelet writes the pod's status meanwhile, and an update of the
            // version read would be refused as a conflict.
            NODE.client().pods().inNamespace(namespace).withName("long-poll")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
        }
        Eventually.await(Duration.ofSeconds(60), () -> NODE.pods().get(pod), p -> p == null, "the pod gone");
    }

    /** The sidecar's gauge line of waiting long polls, scraped from inside the pod (its network namespace). */
    private static String waiters(Pod pod) {
        try {
            return NODE.pods().exec(pod, AppPods.APP, "curl", "-fsS", "localhost:9000/q/metrics").lines()
                    .filter(l -> l.startsWith("dra_long_poll_waiters ")).findFirst().orElse("no dra_long_poll_waiters");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static boolean terminated(Pod pod, String container) {
        ContainerStatus status = AppPods.status(pod, container);
        return status != null && status.getState() != null && status.getState().getTerminated() != null;
    }

    private static TimedLine line(List<TimedLine> log, String prefix) {
        TimedLine found = log.stream().filter(l -> l.text().startsWith(prefix)).findFirst().orElse(null);
        assertNotNull(found, "a line \"" + prefix + "...\" in the poller's log: " + log);
        return found;
    }
}
