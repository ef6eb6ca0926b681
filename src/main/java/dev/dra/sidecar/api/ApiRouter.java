package dev.dra.sidecar.api;

import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import dev.dra.sidecar.identity.Refusal;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The API's Vert.x handlers, ahead of the JAX-RS resources, for every request on the API port. The first screens a
 * request's body before it is read: one declared larger than the server takes gets the problem instead of Quarkus'
 * plain 413, and one past {@link RequestBodyAdmission}'s bound is refused. The second, in order: it
 * names the request's URI template ({@link ApiRoutes}) for the {@code uri} label of HTTP server metrics, refuses a
 * foreign Host with {@code 400 invalid-host} ({@link HostHeaderFilter}), finds who is asking ({@link CallerResolver}: in node
 * mode a refused caller gets its problem, a caller whose check failed otherwise {@code 500 internal}, and a claim that
 * is not the caller's own {@code 404 not-own-claim}), and
 * lets {@link FastReadHandler} answer plain reads. Everything else goes on to the resources. A failure handler answers
 * {@code 400 invalid-host} for a request Vert.x fails before any handler runs because of its Host.
 */
@ApplicationScoped
class ApiRouter {

    private static final Logger LOG = Logger.getLogger(ApiRouter.class);

    /**
     * The request-context local that Quarkus' Micrometer binder takes the {@code uri} label from; RESTEasy Reactive
     * sets it to the matched resource's template, so a request the resources answer reports the same template.
     */
    private static final String URI_TEMPLATE = "UrlPathTemplate";

    /** Just ahead of Quarkus' check of {@code quarkus.http.limits.max-body-size}, which answers a plain 413. */
    private static final int AHEAD_OF_BODY_LIMIT = RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 1;

    private final HostHeaderFilter hosts;
    private final FastReadHandler reads;
    private final RoutedProblems problems;
    private final RequestBodyAdmission bodies;
    private final CallerResolver callers;
    private final long maxBodySize;

    ApiRouter(HostHeaderFilter hosts, FastReadHandler reads, RoutedProblems problems, RequestBodyAdmission bodies,
            CallerResolver callers,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size") Optional<MemorySize> maxBodySize) {
        this.hosts = hosts;
        this.callers = callers;
        this.reads = reads;
        this.problems = problems;
        this.bodies = bodies;
        this.maxBodySize = maxBodySize.map(MemorySize::asLongValue).orElse(Long.MAX_VALUE);
    }

    void route(@Observes Router router) {
        router.route().order(AHEAD_OF_BODY_LIMIT).handler(this::screenBody);
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

    /**
     * Before a request's body is read: one whose {@code Content-Length} is over the server's body limit gets
     * {@code 413 payload-too-large}, and one with a body (a length above 0, or chunks) that
     * {@link RequestBodyAdmission} has no place for gets {@code 503 too-many-request-bodies}; either gets
     * {@code 400 invalid-host} first if its Host is foreign, and its connection is closed, since the body that
     * follows is never read. A body sent in chunks past the limit is cut off by Quarkus' own check, with a plain 413.
     */
    private void screenBody(RoutingContext context) {
        HttpServerRequest request = context.request();
        long declared = declaredLength(request.getHeader("Content-Length"));
        if (declared > maxBodySize) {
            refuseUnread(context, ProblemType.PAYLOAD_TOO_LARGE, "the request body (" + declared
                    + " bytes) is larger than quarkus.http.limits.max-body-size (" + maxBodySize + " bytes)");
        } else if ((declared > 0 || request.getHeader("Transfer-Encoding") != null) && !bodies.admit(context)) {
            refuseUnread(context, ProblemType.TOO_MANY_REQUEST_BODIES, bodies.refusal());
        } else {
            context.next();
        }
    }

    /** Answers a request whose body is left unread, and closes its connection once the answer is out. */
    private void refuseUnread(RoutingContext context, ProblemType type, String detail) {
        HttpServerRequest request = context.request();
        // Vert.x would otherwise wait for the body before ending the exchange.
        context.response().putHeader("Connection", "close").endHandler(sent -> request.connection().close());
        if (!hosts.allows(request)) {
            hosts.refuse(context);
        } else {
            problems.send(context, type, detail);
        }
    }

    /** The declared body length; -1 without one, or with one that is not a number (the server refuses those). */
    private static long declaredLength(String header) {
        if (header == null || header.isEmpty() || header.length() > 18 || !header.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Long.parseLong(header);
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

    /** The request's caller as {@link CallerResolver} finds it; a check that fails before it has begun completes it too. */
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
                        + (named.kind() == dev.dra.sidecar.snapshot.ClaimKind.CLAIM ? "claim " : "template claim ")
                        + claim);
                return;
            }
        }
        if (match.isEmpty() || !reads.serve(context, match.get(), caller)) {
            context.next();
        }
    }
}
