package dev.dra.sidecar.ops;

import dev.dra.sidecar.store.MetadataStore;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
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
 *
 * <p>With a shutdown delay ({@code quarkus.shutdown.delay}: node mode's, while its Service stops sending it new
 * connections) the application serves as before for that long, long polls included, and this hook answers them at
 * its end, when Quarkus starts closing every connection after its next answer: a long poll answered then, and
 * polled again, is answered at once with {@code Connection: close}, and its client polls the new agent.
 */
@Singleton
@Startup
public class GracefulShutdown {

    private static final Logger LOG = Logger.getLogger(GracefulShutdown.class);

    private final MetadataStore store;
    private final Thread hook;

    GracefulShutdown(MetadataStore store,
            @ConfigProperty(name = "quarkus.shutdown.delay") Optional<Duration> delay) {
        this.store = store;
        this.hook = new Thread(() -> answerWaitersAfter(delay.orElse(Duration.ZERO)), "dra-answer-long-polls");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    void onStop(@Observes ShutdownEvent event) {
        answerWaiters();
    }

    private void answerWaitersAfter(Duration delay) {
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
