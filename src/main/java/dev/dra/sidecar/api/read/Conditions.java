package dev.dra.sidecar.api.read;

import dev.dra.sidecar.api.ApiConfig;
import dev.dra.sidecar.api.path.PathNames;
import dev.dra.sidecar.api.problem.ApiException;
import dev.dra.sidecar.api.problem.ProblemType;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The conditional and long-poll parameters every GET takes. Parsed here rather than by the framework so
 * that a bad value is a {@code 400 invalid-parameter}, not a 404.
 */
public class Conditions {

    @QueryParam("waitForChange")
    @Parameter(description = "Long poll: answer when the resource's ETag differs from lastEtag, or at the timeout.",
            schema = @Schema(type = SchemaType.BOOLEAN))
    List<String> waitForChange;

    @QueryParam("lastEtag")
    @Parameter(description = "The ETag the client has; with waitForChange, the answer waits while it is current. "
            + "Absent: answer at once.", example = "\"3f1a9c0e5b7d2a4c8e6f1b3d5a7c9e0f\"", schema = @Schema(type = SchemaType.STRING))
    List<String> lastEtag;

    @QueryParam("timeoutSeconds")
    @Parameter(description = "Longest wait of a long poll, 1 to " + ApiConfig.LONG_POLL_MAX_SECONDS + " seconds (default "
            + ApiConfig.LONG_POLL_DEFAULT_SECONDS + ").",
            schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = ApiConfig.LONG_POLL_MAX_SECONDS))
    List<String> timeoutSeconds;

    /**
     * The long-poll parameters as the request gave them: Vert.x keeps an empty value ({@code ?waitForChange=}), which
     * the list fields above do not. The fields state the parameters in the OpenAPI document.
     */
    @Context
    io.vertx.core.http.HttpServerRequest request;

    @HeaderParam("If-None-Match")
    @Parameter(description = "ETags the client has; a match answers 304 without a body.")
    String ifNoneMatch;

    /**
     * How long to wait for a change, or {@code null} when this is not a long poll. Each parameter may be given
     * once: a repeated one is {@code 400 invalid-parameter}, as is an empty or malformed value.
     */
    Duration longPoll(ApiConfig config) {
        String wait = single("waitForChange", waitForChange);
        String timeout = single("timeoutSeconds", timeoutSeconds);
        single("lastEtag", lastEtag);
        if (wait == null || wait.equalsIgnoreCase("false")) {
            if (timeout != null) {
                seconds(config, timeout);
            }
            return null;
        }
        if (!wait.equalsIgnoreCase("true")) {
            throw new ApiException(ProblemType.INVALID_PARAMETER, "waitForChange must be true or false, got " + PathNames.quote(wait));
        }
        return timeout == null ? config.longPollDefaultTimeout() : seconds(config, timeout);
    }

    private String single(String name, List<String> declared) {
        List<String> values = request == null ? declared : request.params().getAll(name);
        if (values == null || values.isEmpty()) {
            return null;
        }
        if (values.size() > 1) {
            throw new ApiException(ProblemType.INVALID_PARAMETER, name + " is given " + values.size() + " times; give it once");
        }
        return values.get(0);
    }

    private static Duration seconds(ApiConfig config, String timeout) {
        long max = config.longPollMaxTimeout().toSeconds();
        try {
            long seconds = Long.parseLong(timeout);
            if (seconds >= 1 && seconds <= max) {
                return Duration.ofSeconds(seconds);
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new ApiException(ProblemType.INVALID_PARAMETER, "timeoutSeconds must be a whole number from 1 to " + max + ", got "
                + PathNames.quote(timeout));
    }

    /** Whether {@code etag} is the one the long poll waits on ({@code lastEtag}), quoted or not. */
    boolean isLastEtag(String etag) {
        String last = single("lastEtag", lastEtag);
        return last != null && etag != null && unquote(last).equals(unquote(etag));
    }

    /** Whether {@code If-None-Match} names {@code etag} (or is {@code *}). */
    boolean notModified(String etag) {
        return notModified(ifNoneMatch, etag);
    }

    /** Whether the {@code If-None-Match} header value {@code ifNoneMatch} names {@code etag} (or is {@code *}). */
    static boolean notModified(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null || etag == null) {
            return false;
        }
        String wanted = unquote(etag);
        for (String candidate : ifNoneMatch.split(",")) {
            String c = candidate.trim();
            if (c.equals("*") || unquote(c).equals(wanted)) {
                return true;
            }
        }
        return false;
    }

    private static String unquote(String etag) {
        String e = etag.trim();
        if (e.startsWith("W/")) {
            e = e.substring(2);
        }
        if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"")) {
            e = e.substring(1, e.length() - 1);
        }
        return e;
    }
}
