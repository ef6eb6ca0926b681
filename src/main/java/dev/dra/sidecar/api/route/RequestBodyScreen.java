package dev.dra.sidecar.api.route;

import dev.dra.sidecar.api.admission.RequestBodyAdmission;
import dev.dra.sidecar.api.problem.ProblemType;
import dev.dra.sidecar.api.problem.RoutedProblems;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Screens every request's body on the API port before it is read, just ahead of Quarkus' check of
 * {@code quarkus.http.limits.max-body-size} (which answers a plain 413): one whose {@code Content-Length} is over that
 * limit gets {@code 413 payload-too-large}, and one with a body (a length above 0, or chunks) that
 * {@link RequestBodyAdmission} has no place for gets {@code 503 too-many-request-bodies}; either gets
 * {@code 400 invalid-host} first if its Host is foreign, and its connection is closed, since the body that follows is
 * never read. A body sent in chunks past the limit is cut off by Quarkus' own check, with a plain 413. Any other
 * request goes on, its body unread.
 */
@ApplicationScoped
class RequestBodyScreen {

    /** Just ahead of Quarkus' check of {@code quarkus.http.limits.max-body-size}, which answers a plain 413. */
    private static final int AHEAD_OF_BODY_LIMIT = RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 1;

    private final HostHeaderFilter hosts;
    private final RoutedProblems problems;
    private final RequestBodyAdmission bodies;
    private final long maxBodySize;

    RequestBodyScreen(HostHeaderFilter hosts, RoutedProblems problems, RequestBodyAdmission bodies,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size") Optional<MemorySize> maxBodySize) {
        this.hosts = hosts;
        this.problems = problems;
        this.bodies = bodies;
        this.maxBodySize = maxBodySize.map(MemorySize::asLongValue).orElse(Long.MAX_VALUE);
    }

    void route(@Observes Router router) {
        router.route().order(AHEAD_OF_BODY_LIMIT).handler(this::screen);
    }

    private void screen(RoutingContext context) {
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
}
