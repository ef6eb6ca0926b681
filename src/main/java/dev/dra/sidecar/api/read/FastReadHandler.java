package dev.dra.sidecar.api.read;

import dev.dra.sidecar.api.caller.Caller;
import dev.dra.sidecar.api.path.ApiRoutes;
import dev.dra.sidecar.api.path.PathNames;
import dev.dra.sidecar.snapshot.ClaimEntry;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.DriverEntry;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.RequestEntry;
import dev.dra.sidecar.snapshot.Served;
import dev.dra.sidecar.store.MetadataStore;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The plain reads, answered straight from the snapshot on the event loop: a {@code GET} of an index, a claim, a
 * request or a driver, without query parameters, that accepts JSON and that the snapshot can answer with ready bytes.
 * The answer (body, {@code ETag}, {@code Metadata-Source-Version}, {@code Warning}, {@code 304}) is byte for byte the
 * one the JAX-RS resources give, through {@link ConditionalResponses}. Everything else (long polls, attribute values,
 * names that are invalid or absent, files that cannot be served, other methods) is left to the resources.
 */
@ApplicationScoped
public class FastReadHandler {

    private final MetadataStore store;

    FastReadHandler(MetadataStore store) {
        this.store = store;
    }

    /**
     * Answers the request from {@code caller}'s view and returns {@code true}, or returns {@code false} and leaves it
     * to the resources.
     */
    public boolean serve(RoutingContext context, ApiRoutes.Match match, Caller caller) {
        HttpServerRequest request = context.request();
        if (request.method() != HttpMethod.GET || request.query() != null || !acceptsJson(request.getHeader("Accept"))) {
            return false;
        }
        Optional<Served.Available> ready = lookup(caller.view(store.current()), match);
        if (ready.isEmpty()) {
            return false;
        }
        Served.Available available = ready.get();
        HttpServerResponse response = context.response();
        ConditionalResponses.headers(available, response::putHeader);
        if (Conditions.notModified(request.getHeader("If-None-Match"), available.etag())) {
            response.setStatusCode(304).end();
        } else {
            response.putHeader("Content-Type", MediaType.APPLICATION_JSON).end(Buffer.buffer(available.body()));
        }
        return true;
    }

    /** Whether JSON is acceptable; anything less clear is left to the resources' content negotiation (406). */
    private static boolean acceptsJson(String accept) {
        if (accept == null) {
            return true;
        }
        for (String range : accept.split(",")) {
            String[] parts = range.split(";");
            String type = parts[0].trim().toLowerCase(Locale.ROOT);
            if (type.equals("*/*") || type.equals("application/*") || type.equals(MediaType.APPLICATION_JSON)) {
                boolean refused = false;
                for (int i = 1; i < parts.length; i++) {
                    refused |= parts[i].trim().matches("[qQ]\\s*=\\s*0(\\.0{0,3})?");
                }
                if (!refused) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The ready bytes {@code match} names, or empty when the resources must answer (or refuse) it. */
    private static Optional<Served.Available> lookup(MetadataSnapshot snapshot, ApiRoutes.Match match) {
        ClaimKind kind = match.kind();
        List<String> names = match.parameters();
        Optional<? extends Served> served = switch (match.route()) {
            case INDEX -> Optional.of(snapshot.claims(kind).index());
            case CLAIM -> PathNames.isClaim(names.get(0))
                    ? SnapshotLookup.findClaim(snapshot, kind, names.get(0)).map(ClaimEntry::served)
                    : Optional.empty();
            case REQUEST -> PathNames.isClaim(names.get(0)) && PathNames.isRequest(names.get(1))
                    ? SnapshotLookup.findRequest(snapshot, kind, names.get(0), names.get(1)).map(RequestEntry::merged)
                    : Optional.empty();
            case DRIVER -> PathNames.isClaim(names.get(0)) && PathNames.isRequest(names.get(1))
                    && PathNames.isDriver(names.get(2))
                    ? SnapshotLookup.findDriver(snapshot, kind, names.get(0), names.get(1), names.get(2))
                            .map(DriverEntry::served)
                    : Optional.empty();
            case VALIDATION, ATTRIBUTE, REQUEST_ATTRIBUTE, ENV -> Optional.empty();
        };
        return served.filter(Served.Available.class::isInstance).map(Served.Available.class::cast);
    }
}
