package dev.dra.sidecar.api.route;

import dev.dra.sidecar.api.caller.Caller;
import dev.dra.sidecar.api.caller.CallerResolver;
import dev.dra.sidecar.api.path.ApiRoutes;
import dev.dra.sidecar.api.path.PathNames;
import dev.dra.sidecar.api.problem.ProblemType;
import dev.dra.sidecar.api.problem.RoutedProblems;
import dev.dra.sidecar.api.read.FastReadHandler;
import dev.dra.sidecar.identity.Refusal;
import dev.dra.sidecar.snapshot.ClaimKind;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.jboss.logging.Logger;

/**
 * The API's Vert.x handler for every request on the API port, after its body is screened ({@link RequestBodyScreen})
 * and ahead of the JAX-RS resources. In order: it names the request's URI template ({@link ApiRoutes}) for the
 * {@code uri} label of HTTP server metrics, refuses a foreign Host with {@code 400 invalid-host}
 * ({@link HostHeaderFilter}), finds who is asking ({@link CallerResolver}: in node mode a refused caller gets its
 * problem, a caller whose check failed otherwise {@code 500 internal}, and a claim that is not the caller's own
 * {@code 404 not-own-claim}), and lets {@link FastReadHandler} answer plain reads. Everything else goes on to the
 * resources. A failure handler answers {@code 400 invalid-host} for a request Vert.x fails before any handler runs
 * because of its Host.
 */
@ApplicationScoped
class RequestPipeline {

    private static final Logger LOG = Logger.getLogger(RequestPipeline.class);

    /**
     * The request-context local that Quarkus' Micrometer binder takes the {@code uri} label from; RESTEasy Reactive
     * sets it to the matched resource's template, so a request the resources answer reports the same template.
     */
    private static final String URI_TEMPLATE = "UrlPathTemplate";

    private final HostHeaderFilter hosts;
    private final FastReadHandler reads;
    private final RoutedProblems problems;
    private final CallerResolver callers;

    RequestPipeline(HostHeaderFilter hosts, FastReadHandler reads, RoutedProblems problems, CallerResolver callers) {
        this.hosts = hosts;
        this.reads = reads;
        this.problems = problems;
        this.callers = callers;
    }

    void route(@Observes Router router) {
        router.route().handler(this::handle);
        router.route().order(Integer.MIN_VALUE).failureHandler(this::refuseUnroutableHost);
    }

    /**
     * A failed request whose Host is not an allowed one is answered {@code 400 invalid-host}, like any other
     * foreign Host. Vert.x fails an HTTP/1.x request whose Host is missing or has no numeric port before any
     * handler runs; Quarkus would answer it with its generic error and an ERROR line in the log.
     */
    private void refuseUnroutableHost(RoutingContext context) {
        if (!context.response().headWritten() && !hosts.allows(context.request())) {
            hosts.refuse(context);
        } else {
            context.next();
        }
    }

    private void handle(RoutingContext context) {
        HttpServerRequest request = context.request();
        Optional<ApiRoutes.Match> match = request.path() == null ? Optional.empty() : ApiRoutes.match(request.path());
        if (match.isPresent() && Vertx.currentContext() != null) {
            Vertx.currentContext().putLocal(URI_TEMPLATE, match.get().template());
        }
        if (!hosts.allows(request)) {
            hosts.refuse(context);
            return;
        }
        CompletableFuture<Caller> caller = resolve(request);
        if (caller.isDone()) {
            serve(context, match, caller);
            return;
        }
        // The caller is being checked with the API server: hold the request (and its body) until it is known, then
        // go on on the request's own event loop.
        io.vertx.core.Context requestContext = Vertx.currentContext();
        request.pause();
        caller.whenComplete((found, failure) -> requestContext.runOnContext(v -> {
            request.resume();
            serve(context, match, caller);
        }));
    }

    /**
     * The request's caller as {@link CallerResolver} finds it; a check that fails before it has begun completes it
     * too.
     */
    private CompletableFuture<Caller> resolve(HttpServerRequest request) {
        try {
            return callers.resolve(request);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Answers a request whose caller was not found: a {@link Refusal} with its problem; any other failure, which is
     * a bug, with {@code 500 internal}, logged here at ERROR with its cause (the request ends here, the server goes
     * on serving).
     */
    private void refuse(RoutingContext context, Throwable failure) {
        if (failure instanceof Refusal refusal) {
            problems.send(context, ProblemType.of(refusal.reason()), refusal.getMessage());
            return;
        }
        HttpServerRequest request = context.request();
        LOG.errorf(failure, "Checking the caller of %s %s failed", request.method(), request.path());
        problems.send(context, ProblemType.INTERNAL, "the caller could not be checked; the log says why");
    }

    private void serve(RoutingContext context, Optional<ApiRoutes.Match> match, CompletableFuture<Caller> resolved) {
        Caller caller;
        try {
            caller = resolved.join();
        } catch (CompletionException | CancellationException e) {
            refuse(context, e.getCause() == null ? e : e.getCause());
            return;
        }
        context.put(Caller.KEY, caller);
        if (match.isPresent() && match.get().route() != ApiRoutes.ClaimRoute.INDEX) {
            ApiRoutes.Match named = match.get();
            String claim = named.parameters().get(0);
            if (PathNames.isClaim(claim) && !caller.owns(named.kind(), claim)) {
                problems.send(context, ProblemType.NOT_OWN_CLAIM, "the calling pod has no "
                        + (named.kind() == ClaimKind.CLAIM ? "claim " : "template claim ")
                        + claim);
                return;
            }
        }
        if (match.isEmpty() || !reads.serve(context, match.get(), caller)) {
            context.next();
        }
    }
}
