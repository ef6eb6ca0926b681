package dev.dra.sidecar.api;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;

/**
 * The API's one Vert.x handler, ahead of the JAX-RS resources, for every request on the API port. In order: it
 * names the request's URI template ({@link ApiRoutes}) for the {@code uri} label of HTTP server metrics, refuses a
 * foreign Host with {@code 400 invalid-host} ({@link HostHeaderFilter}, the only Host check), and lets
 * {@link FastReads} answer plain reads. Everything else goes on to the resources.
 */
@ApplicationScoped
class ApiRouter {

    /**
     * The request-context local that Quarkus' Micrometer binder takes the {@code uri} label from; RESTEasy Reactive
     * sets it to the matched resource's template, so a request the resources answer reports the same template.
     */
    private static final String URI_TEMPLATE = "UrlPathTemplate";

    private final HostHeaderFilter hosts;
    private final FastReads reads;

    ApiRouter(HostHeaderFilter hosts, FastReads reads) {
        this.hosts = hosts;
        this.reads = reads;
    }

    void route(@Observes Router router) {
        router.route().handler(this::handle);
    }

    private void handle(RoutingContext context) {
        HttpServerRequest request = context.request();
        Optional<ApiRoutes.Match> match = request.path() == null ? Optional.empty() : ApiRoutes.match(request.path());
        if (match.isPresent() && Vertx.currentContext() != null) {
            Vertx.currentContext().putLocal(URI_TEMPLATE, match.get().template());
        }
        if (!hosts.allows(request)) {
            hosts.refuse(context);
        } else if (match.isEmpty() || !reads.serve(context, match.get())) {
            context.next();
        }
    }
}
