package dev.dra.sidecar.ops;

import dev.dra.sidecar.store.MetadataStore;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Answers long polls when the application stops, with the current representation (a normal 200), so clients
 * re-poll the next sidecar instead of seeing a reset, and no open long poll holds the shutdown.
 *
 * <p>Why a JVM shutdown hook as well as {@link ShutdownEvent}: on SIGTERM, Quarkus first waits up to
 * {@code quarkus.shutdown.timeout} for in-flight requests, and fires {@code ShutdownEvent} only after that wait.
 * A long poll is an in-flight request, so answering it on {@code ShutdownEvent} alone would make every stop take
 * the whole timeout. JVM hooks start together at SIGTERM: this one answers the waiters while Quarkus waits for
 * them. {@code ShutdownEvent} covers stops without a signal (tests, dev mode).
 */
@Singleton
@Startup
public class GracefulShutdown {

    private static final Logger LOG = Logger.getLogger(GracefulShutdown.class);

    private final MetadataStore store;
    private final Thread hook;

    GracefulShutdown(MetadataStore store) {
        this.store = store;
        this.hook = new Thread(this::answerWaiters, "dra-answer-long-polls");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    void onStop(@Observes ShutdownEvent event) {
        answerWaiters();
    }

    private void answerWaiters() {
        int waiting = store.waiting();
        store.answerWaitersNow();
        if (waiting > 0) {
            LOG.infof("Stopping: answered %d long poll(s) with the current metadata", waiting);
        }
    }

    @PreDestroy
    void removeHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down: the hook runs (or ran) anyway.
        }
    }
}
