package dev.dra.sidecar.node;

import io.fabric8.kubernetes.client.dsl.LogWatch;
import io.fabric8.kubernetes.client.dsl.Loggable;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.opentest4j.AssertionFailedError;

/**
 * A container's log streamed as it is written (kubelet's follow mode), kept in memory: what the container wrote stays
 * readable after kubelet has removed the container. {@link #lines} waits for the stream's end, which kubelet marks
 * when the container ends.
 */
final class FollowedLog implements AutoCloseable {

    private final String container;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final LogWatch watch;

    FollowedLog(String container, Loggable log) {
        this.container = container;
        this.watch = log.watchLog(out);
    }

    /** Every line the container wrote, once it has ended; fails when its log has not ended within {@code within}. */
    List<TimedLine> lines(Duration within) throws InterruptedException {
        try {
            watch.onClose().toCompletableFuture().get(within.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionFailedError(container + "'s log did not end within " + within + "; so far: " + text());
        } catch (ExecutionException e) {
            throw new AssertionFailedError(container + "'s log stream failed; so far: " + text(), e.getCause());
        }
        return TimedLine.parse(text());
    }

    private String text() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        watch.close();
    }
}
