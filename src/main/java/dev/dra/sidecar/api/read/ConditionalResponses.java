package dev.dra.sidecar.api.read;

import dev.dra.sidecar.api.problem.ApiException;
import dev.dra.sidecar.snapshot.Served;
import jakarta.ws.rs.core.Response;
import java.util.function.BiConsumer;

/**
 * How ready bytes leave, on both read paths: {@code 200} with the body, or {@code 304} without it when
 * {@code If-None-Match} names the ETag (or is {@code *}); either way with {@link #headers}. What cannot be served is
 * its file's problem.
 */
public final class ConditionalResponses {

    public static final String SOURCE_VERSION_HEADER = "Metadata-Source-Version";
    public static final String SOURCE_HEADER = "Metadata-Source";

    private ConditionalResponses() {}

    /** The JAX-RS answer for {@code served}; throws the problem of an unavailable one. */
    static Response respond(Served served, Conditions conditions, String mediaType) {
        if (served instanceof Served.Unavailable failure) {
            throw ApiException.unavailable(failure);
        }
        Served.Available available = (Served.Available) served;
        Response.ResponseBuilder response = conditions.notModified(available.etag())
                ? Response.notModified()
                : Response.ok(available.body(), mediaType);
        headers(available, response::header);
        return response.build();
    }

    /**
     * The headers every answer with {@code available} carries, 200 and 304 alike: {@code ETag}; for metadata,
     * {@code Metadata-Source} ({@code file}, {@code resource-api}, or both in merge order); the
     * {@code Metadata-Source-Version} when the bytes come from files; {@code Warning: 110 - "stale: <reason>"} when
     * the latest read of a file failed and its last good object is served.
     */
    static void headers(Served.Available available, BiConsumer<String, String> header) {
        header.accept("ETag", available.etag());
        if (available.sources() != null) {
            header.accept(SOURCE_HEADER, available.sources());
        }
        if (available.sourceVersions() != null) {
            header.accept(SOURCE_VERSION_HEADER, available.sourceVersions());
        }
        if (available.staleReason() != null) {
            header.accept("Warning", "110 - \"stale: " + headerSafe(available.staleReason()) + '"');
        }
    }

    /** A quoted-string for a header: no quotes, backslashes or control characters, at most 300 characters and "...". */
    private static String headerSafe(String reason) {
        String s = reason.replaceAll("[\\p{Cntrl}\"\\\\]", " ");
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }
}
