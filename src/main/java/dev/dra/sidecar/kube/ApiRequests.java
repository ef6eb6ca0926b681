package dev.dra.sidecar.kube;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts the calls made to the API server as {@code dra_kube_api_requests_total}, by {@code verb} ({@code get},
 * {@code list}, {@code watch}, {@code create}), {@code resource} (the collection: {@code pods}, {@code resourceclaims},
 * {@code resourceslices}, {@code tokenreviews}; for a path outside {@code /api} and {@code /apis}, its last segment:
 * {@code openid-configuration}, {@code jwks}) and {@code outcome} ({@code ok}; {@code refused}: the API server
 * answered with a status other than 2xx; {@code failed}: no answer). A watch counts once, when it starts.
 */
public final class ApiRequests {

    /** Counts nothing: for a client made outside the application. */
    public static final ApiRequests NONE = new ApiRequests(null);

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    public ApiRequests(MeterRegistry registry) {
        this.registry = registry;
    }

    /** A call of {@code method} to {@code pathAndQuery} ended with {@code outcome}. */
    void count(String method, String pathAndQuery, String outcome) {
        if (registry == null) {
            return;
        }
        int query = pathAndQuery.indexOf('?');
        String path = query < 0 ? pathAndQuery : pathAndQuery.substring(0, query);
        String[] segments = path.replaceFirst("^/", "").split("/");
        if (!segments[0].equals("api") && !segments[0].equals("apis")) {
            // /.well-known/openid-configuration, /openid/v1/jwks
            increment("get", segments[segments.length - 1], outcome);
            return;
        }
        // /api/v1/[namespaces/<ns>/]<resource>[/<name>], /apis/<group>/<version>/[namespaces/<ns>/]<resource>[/<name>]
        int at = segments[0].equals("api") ? 2 : 3;
        if (segments.length > at + 2 && segments[at].equals("namespaces")) {
            at += 2;
        }
        String resource = segments.length > at ? segments[at] : "unknown";
        boolean item = segments.length > at + 1;
        String verb = method.equals("POST") ? "create" : item ? "get"
                : query >= 0 && pathAndQuery.contains("watch=true") ? "watch" : "list";
        increment(verb, resource, outcome);
    }

    private void increment(String verb, String resource, String outcome) {
        counters.computeIfAbsent(verb + "|" + resource + "|" + outcome, key -> Counter.builder("dra.kube.api.requests")
                .description("Calls made to the API server").tag("verb", verb).tag("resource", resource)
                .tag("outcome", outcome).register(registry)).increment();
    }
}
