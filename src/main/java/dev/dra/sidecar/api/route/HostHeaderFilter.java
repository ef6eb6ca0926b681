package dev.dra.sidecar.api.route;

import dev.dra.sidecar.api.ApiConfig;
import dev.dra.sidecar.api.problem.ProblemType;
import dev.dra.sidecar.api.problem.RoutedProblems;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Locale;

/**
 * Answers only to the Host names the API is configured for ({@code dra.api.allowed-hosts}); any other request is
 * {@code 400 invalid-host}, whatever its path or method. The API listens on loopback, but a web page in a browser on
 * the same host could reach it through DNS rebinding; such a request carries a foreign Host. A request with more
 * than one Host field is refused too (RFC 9112 §3.2). The API speaks HTTP/1.1 only ({@code quarkus.http.http2=false}),
 * so every request has its Host in its headers.
 */
@ApplicationScoped
class HostHeaderFilter {

    private final List<String> allowed;
    private final RoutedProblems problems;

    HostHeaderFilter(ApiConfig config, RoutedProblems problems) {
        this.allowed = config.allowedHosts().stream().map(h -> h.trim().toLowerCase(Locale.ROOT)).toList();
        this.problems = problems;
    }

    /** Whether the request's Host is one of the allowed ones. */
    boolean allows(HttpServerRequest request) {
        // getHeader() returns only the first field, so "Host: localhost" followed by "Host: evil.example" would pass.
        String raw = request.headers().getAll("Host").size() > 1 ? "" : request.getHeader("Host");
        String host = raw == null ? null : hostName(raw.trim().toLowerCase(Locale.ROOT));
        return host != null && allowed.contains(host);
    }

    /** Answers {@code 400 invalid-host}. */
    void refuse(RoutingContext context) {
        problems.send(context, ProblemType.INVALID_HOST, "this API answers only to Host " + String.join(", ", allowed)
                + " (setting dra.api.allowed-hosts)");
    }

    /**
     * The host without its port: {@code localhost:8089} → {@code localhost}, {@code [::1]:8089} → {@code [::1]};
     * {@code null} when what follows the host is not a port.
     */
    private static String hostName(String host) {
        int end = host.startsWith("[") ? host.indexOf(']') + 1 : host.indexOf(':');
        if (end <= 0 || end == host.length()) {
            return end == 0 ? null : host;
        }
        String port = host.substring(end);
        return port.matches(":[0-9]{1,5}") ? host.substring(0, end) : null;
    }
}
