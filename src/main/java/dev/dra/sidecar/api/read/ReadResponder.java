package dev.dra.sidecar.api.read;

import dev.dra.sidecar.api.ApiConfig;
import dev.dra.sidecar.api.admission.LongPollAdmission;
import dev.dra.sidecar.api.caller.Caller;
import dev.dra.sidecar.api.caller.CallerResolver;
import dev.dra.sidecar.api.problem.ApiException;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.Served;
import dev.dra.sidecar.store.MetadataStore;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;

/**
 * Answers every read the resources serve, and decides when: at once, or, for a long poll ({@code waitForChange=true}
 * with {@code lastEtag}), as soon as the resource's ETag differs from {@code lastEtag} or the wait ends, whichever
 * comes first; while the application stops, at once. A waiting poll holds no thread: it is a callback on the store's
 * change signal and on one timer thread, and its answer is sent on the request's own event loop.
 */
@ApplicationScoped
public class ReadResponder {

    /**
     * Fires every long-poll timeout, so that any number of waiters timing out together takes one thread, never the
     * worker pool. What it runs is short: look up ready bytes and hand the answer to the event loop.
     */
    private static final ScheduledExecutorService TIMEOUTS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "dra-long-poll-timeouts");
        thread.setDaemon(true);
        return thread;
    });

    private final MetadataStore store;
    private final ApiConfig config;
    private final LongPollAdmission admission;
    private final CallerResolver callers;

    ReadResponder(MetadataStore store, ApiConfig config, LongPollAdmission admission, CallerResolver callers) {
        this.store = store;
        this.callers = callers;
        this.config = config;
        this.admission = admission;
    }

    /**
     * Answers with what {@code resolve} finds in the caller's view of the current snapshot ({@link Caller#view}), as
     * {@link ConditionalResponses} writes it;
     * with a long poll, waits first while what it finds has {@code lastEtag}. {@code resolve} throws
     * {@link ApiException} for names that are not there; a bad long-poll parameter is {@code 400 invalid-parameter};
     * a long poll that would wait past {@code dra.api.max-long-polls} is refused at once with
     * {@code 503 too-many-long-polls} ({@link LongPollAdmission}).
     */
    public Uni<Response> answer(Function<MetadataSnapshot, ? extends Served> resolve, Conditions conditions, String mediaType) {
        Duration wait = conditions.longPoll(config);
        Caller caller = callers.current();
        MetadataSnapshot snapshot = store.current();
        Served served = resolve.apply(caller.view(snapshot));
        if (wait == null || !conditions.isLastEtag(etag(served))) {
            return Uni.createFrom().item(ConditionalResponses.respond(served, conditions, mediaType));
        }
        long deadline = System.nanoTime() + wait.toNanos();
        Context context = Vertx.currentContext();
        admission.admit();
        // The place is given back however the wait ends: answered, failed, or cancelled by a closed connection.
        Uni<Response> waiting = waitForChange(snapshot, s -> resolve.apply(caller.view(s)), conditions, mediaType,
                deadline)
                .onTermination().invoke(admission::release);
        // Changes arrive on the refresh thread and timeouts on the timer thread: an answer completed there could sit
        // unsent until the connection's next event, so it is completed on the request's own event loop.
        return context == null ? waiting : waiting.emitOn(task -> context.runOnContext(v -> task.run()));
    }

    private Uni<Response> waitForChange(MetadataSnapshot seen, Function<MetadataSnapshot, ? extends Served> resolve,
            Conditions conditions, String mediaType, long deadline) {
        Duration remaining = Duration.ofNanos(deadline - System.nanoTime());
        // Vert.x cannot schedule a timer under 1 ms (ifNoItem().after() would throw and the client would never be
        // answered): a waiter this close to its deadline answers now.
        if (remaining.toMillis() < 1) {
            return Uni.createFrom().item(() -> ConditionalResponses.respond(resolve.apply(store.current()), conditions,
                    mediaType));
        }
        return Uni.createFrom().<MetadataSnapshot>emitter(emitter -> {
                    Runnable cancel = store.awaitChange(seen.sequence(), emitter::complete);
                    emitter.onTermination(cancel);
                })
                .ifNoItem().after(remaining).on(TIMEOUTS).recoverWithItem(store::current)
                .onItem().transformToUni(snapshot -> {
                    Served served = resolve.apply(snapshot);
                    // While the application stops, the store answers waits at once: answer instead of waiting again.
                    if (conditions.isLastEtag(etag(served)) && deadline - System.nanoTime() > 0 && !store.draining()) {
                        return waitForChange(snapshot, resolve, conditions, mediaType, deadline);
                    }
                    return Uni.createFrom().item(ConditionalResponses.respond(served, conditions, mediaType));
                });
    }

    private static String etag(Served served) {
        return served instanceof Served.Available available ? available.etag() : null;
    }
}
