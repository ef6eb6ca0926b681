package dev.dra.sidecar.api;

import dev.dra.sidecar.decode.FailureCode;
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
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Turns what the snapshot holds into HTTP answers: ready bytes with ETag and headers, 304 for a matching
 * {@code If-None-Match}, problem bodies for failures, and long polls that wait as callbacks, not threads.
 */
@ApplicationScoped
public class Representations {

    static final String SOURCE_VERSION_HEADER = "Metadata-Source-Version";

    /**
     * Fires long-poll timeouts. Without it Mutiny fires them on the default worker pool, and a burst of waiters
     * timing out together (clients that polled together) grew that pool by a thread each: 1 to 22 executor
     * threads under LongPollLoadIT. One timer thread for every waiter keeps "waiting holds no thread" true; what it
     * runs is short (look up ready bytes, hand the answer to the event loop).
     */
    private static final ScheduledExecutorService TIMEOUTS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "dra-long-poll-timeouts");
        thread.setDaemon(true);
        return thread;
    });

    private final MetadataStore store;
    private final ApiConfig config;
    private final LongPollAdmission admission;

    Representations(MetadataStore store, ApiConfig config, LongPollAdmission admission) {
        this.store = store;
        this.config = config;
        this.admission = admission;
    }

    /**
     * Answers with what {@code resolve} finds in the current snapshot; with a long poll, waits until what it finds
     * has another ETag than {@code lastEtag}, or the timeout passes. {@code resolve} throws {@link ApiException}
     * for names that are not there. A long poll that would wait past {@code dra.api.max-long-polls} is refused
     * with {@code 503 too-many-long-polls} instead.
     */
    Uni<Response> answer(Function<MetadataSnapshot, ? extends Served> resolve, Conditions conditions, String mediaType) {
        Duration wait = conditions.longPoll(config);
        MetadataSnapshot snapshot = store.current();
        Served served = resolve.apply(snapshot);
        if (wait == null || !conditions.isLastEtag(etag(served))) {
            return Uni.createFrom().item(respond(served, conditions, mediaType));
        }
        long deadline = System.nanoTime() + wait.toNanos();
        Context context = Vertx.currentContext();
        admission.admit();
        // The place is given back however the wait ends: answered, failed, or cancelled by a closed connection.
        Uni<Response> waiting = waitForChange(snapshot, resolve, conditions, mediaType, deadline)
                .onTermination().invoke(admission::release);
        // Changes arrive on the refresh thread and timeouts on the timer thread: answer on the request's own event
        // loop. Completed on a foreign thread, an answer could sit unsent until the connection's next event
        // (LongPollLoadIT saw timeout answers 5 s late, at the next wave of timeouts).
        return context == null ? waiting : waiting.emitOn(task -> context.runOnContext(v -> task.run()));
    }

    private Uni<Response> waitForChange(MetadataSnapshot seen, Function<MetadataSnapshot, ? extends Served> resolve,
            Conditions conditions, String mediaType, long deadline) {
        Duration remaining = Duration.ofNanos(deadline - System.nanoTime());
        // Vert.x cannot schedule a timer under 1 ms: ifNoItem().after() would throw on the event loop and the
        // client would never be answered. A waiter woken by another resource's change this close to its deadline
        // answers now.
        if (remaining.toMillis() < 1) {
            return Uni.createFrom().item(() -> respond(resolve.apply(store.current()), conditions, mediaType));
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
                    return Uni.createFrom().item(respond(served, conditions, mediaType));
                });
    }

    private static String etag(Served served) {
        return served instanceof Served.Available available ? available.etag() : null;
    }

    static Response respond(Served served, Conditions conditions, String mediaType) {
        if (served instanceof Served.Unavailable failure) {
            throw failure(failure);
        }
        Served.Available available = (Served.Available) served;
        Response.ResponseBuilder response = conditions.notModified(available.etag())
                ? Response.notModified()
                : Response.ok(available.body(), mediaType);
        headers(available, response::header);
        return response.build();
    }

    /** The headers every answer with {@code available} carries: ETag, the source versions, a stale warning. */
    static void headers(Served.Available available, BiConsumer<String, String> header) {
        header.accept("ETag", available.etag());
        if (available.sourceVersions() != null) {
            header.accept(SOURCE_VERSION_HEADER, available.sourceVersions());
        }
        if (available.staleReason() != null) {
            header.accept("Warning", "110 - \"stale: " + headerSafe(available.staleReason()) + '"');
        }
    }

    static ApiException failure(Served.Unavailable failure) {
        FailureCode code = failure.code();
        Problem problem = Problem.of(code.httpStatus(), code.code(), title(code), failure.detail());
        return new ApiException(problem, code.isTransient() ? 1 : null);
    }

    private static String title(FailureCode code) {
        return switch (code) {
            case NO_METADATA_OBJECTS -> "Metadata file is empty";
            case MALFORMED_STREAM -> "Metadata file is not well-formed JSON";
            case INVALID_OBJECT -> "Metadata object cannot be decoded";
            case NO_COMPATIBLE_VERSION -> "No compatible metadata version";
            case FILE_TOO_LARGE -> "Metadata file too large";
            case UNREADABLE -> "Metadata file cannot be read";
        };
    }

    /** A quoted-string for a header: no quotes, backslashes or control characters, bounded length. */
    private static String headerSafe(String reason) {
        String s = reason.replaceAll("[\\p{Cntrl}\"\\\\]", " ");
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }
}
