package dev.dra.sidecar.api.caller;

import dev.dra.sidecar.api.problem.ApiException;
import dev.dra.sidecar.api.problem.ProblemType;
import dev.dra.sidecar.identity.PodCallers;
import dev.dra.sidecar.store.config.StoreConfig;
import io.quarkus.runtime.Startup;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.util.concurrent.CompletableFuture;

/**
 * Finds each request's {@link Caller}, as {@link StoreConfig#mode()} says once at start: in sidecar mode always the
 * container itself, at once; in node mode the pod that the request's token and peer address prove
 * ({@link PodCallers}), or the refusal. The request pipeline stores it in the request's context; readers take it
 * from there. Made at start, not at the first request: node mode watches the node's pods from then on, and a
 * node-mode setting it cannot work with (no node name, no CA) stops the start.
 */
@Startup
@ApplicationScoped
public class CallerResolver {

    private final PodCallers pods;
    private final CurrentVertxRequest current;
    private final CompletableFuture<Caller> container = CompletableFuture.completedFuture(Caller.CONTAINER);

    CallerResolver(StoreConfig store, Instance<PodCallers> pods, CurrentVertxRequest current) {
        this.pods = store.mode() == StoreConfig.Mode.NODE ? pods.get() : null;
        this.current = current;
    }

    /** The request's caller; completes with a {@link dev.dra.sidecar.identity.Refusal} when it is refused. */
    public CompletableFuture<Caller> resolve(HttpServerRequest request) {
        if (pods == null) {
            return container;
        }
        String peer = request.remoteAddress() == null ? null : request.remoteAddress().hostAddress();
        return pods.caller(request.getHeader("Authorization"), peer)
                .thenApply(view -> Caller.pod(view, pods::current));
    }

    /** The caller the request pipeline found for the request being served. */
    public Caller current() {
        return of(current.getCurrent());
    }

    /**
     * The caller the request pipeline stored in {@code context}; a request without one is a bug, answered 500 (never
     * data).
     */
    static Caller of(RoutingContext context) {
        Caller caller = context == null ? null : context.get(Caller.KEY);
        if (caller == null) {
            throw new ApiException(ProblemType.INTERNAL, "the request reached a resource without its caller");
        }
        return caller;
    }
}
