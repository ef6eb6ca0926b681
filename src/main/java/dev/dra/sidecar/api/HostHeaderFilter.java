package dev.dra.sidecar.api;

import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Locale;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Answers only to the Host names the API is configured for. The API listens on loopback, but a web page in
 * a browser on the same host could reach it through DNS rebinding; such a request carries a foreign Host.
 */
public class HostHeaderFilter {

    private final List<String> allowed;

    HostHeaderFilter(ApiConfig config) {
        this.allowed = config.allowedHosts().stream().map(h -> h.trim().toLowerCase(Locale.ROOT)).toList();
    }

    @ServerRequestFilter(preMatching = true)
    Response checkHost(HttpServerRequest request) {
        if (allows(request)) {
            return null;
        }
        return ProblemMappers.problem(Problem.of(400, "invalid-host", "Invalid Host header", "this API answers only to "
                + "Host " + String.join(", ", allowed) + " (setting dra.api.allowed-hosts)")).build();
    }

    /** Whether the request's Host is one of the allowed ones. */
    boolean allows(HttpServerRequest request) {
        // RFC 9112 §3.2: a request with more than one Host field is answered 400. getHeader() returns only the
        // first, so "Host: localhost" followed by "Host: evil.example" would pass.
        String raw = request.headers().getAll("Host").size() > 1 ? "" : request.getHeader("Host");
        if (raw == null && request.authority() != null) {
            raw = request.authority().toString(); // HTTP/2 has :authority instead of a Host header
        }
        String host = raw == null ? null : hostName(raw.trim().toLowerCase(Locale.ROOT));
        return host != null && allowed.contains(host);
    }

    /**
     * The host without its port: {@code localhost:8089} → {@code localhost}, {@code [::1]:8089} → {@code [::1]};
     * {@code null} when what follows the host is not a port.
     */
    static String hostName(String host) {
        int end = host.startsWith("[") ? host.indexOf(']') + 1 : host.indexOf(':');
        if (end <= 0 || end == host.length()) {
            return end == 0 ? null : host;
        }
        String port = host.substring(end);
        return port.matches(":[0-9]{1,5}") ? host.substring(0, end) : null;
    }
}
