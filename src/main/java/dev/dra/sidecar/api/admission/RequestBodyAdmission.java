package dev.dra.sidecar.api.admission;

import dev.dra.sidecar.api.ApiConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Admits at most {@code dra.api.max-request-bodies} requests with a body at once, before their bodies are read:
 * {@code POST /validate} holds its body, up to {@code quarkus.http.limits.max-body-size}, and what it decodes from
 * it, and without a bound a client sending many bodies at once, or many bodies slowly, would make the sidecar hold
 * them all. A request past the bound is answered {@code 503 too-many-request-bodies} before its body is read, and its
 * connection closed. Every refusal counts in {@code dra_request_body_refusals_total}.
 */
@Singleton
@Startup // the refusal counter is exposed, at 0, from the start
public class RequestBodyAdmission {

    private final AdmissionLimit limit;

    RequestBodyAdmission(ApiConfig config, MeterRegistry registry) {
        this.limit = new AdmissionLimit(config.maxRequestBodies(), registry, "dra.request.body.refusals",
                "Requests with a body refused with 503 too-many-request-bodies (dra.api.max-request-bodies reached)");
    }

    /**
     * Takes a place for the request's body if one is free. The place is given back when the exchange ends: answered,
     * failed, or its connection closed.
     */
    public boolean admit(RoutingContext context) {
        if (!limit.tryAdmit()) {
            return false;
        }
        AtomicBoolean held = new AtomicBoolean(true);
        context.addEndHandler(ended -> {
            if (held.getAndSet(false)) {
                limit.release();
            }
        });
        return true;
    }

    /** The detail of the refusal. */
    public String refusal() {
        return "this sidecar already reads its limit of " + limit.max()
                + " request bodies at once (dra.api.max-request-bodies); send it again after Retry-After";
    }
}
