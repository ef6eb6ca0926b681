package dev.dra.sidecar.api;

import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.QueryParam;
import java.time.Duration;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The conditional and long-poll parameters every GET takes. Parsed here rather than by the framework so
 * that a bad value is a {@code 400 invalid-parameter}, not a 404.
 */
public class Conditions {

    @QueryParam("waitForChange")
    @Parameter(description = "Long poll: answer when the resource's ETag differs from lastEtag, or at the timeout.",
            schema = @Schema(type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.BOOLEAN))
    String waitForChange;

    @QueryParam("lastEtag")
    @Parameter(description = "The ETag the client has; with waitForChange, the answer waits while it is current. "
            + "Absent: answer at once.", example = "\"3f1a9c0e5b7d2a4c8e6f1b3d5a7c9e0f\"")
    String lastEtag;

    @QueryParam("timeoutSeconds")
    @Parameter(description = "Longest wait of a long poll, 1 to " + ApiConfig.LONG_POLL_MAX_SECONDS + " seconds (default "
            + ApiConfig.LONG_POLL_DEFAULT_SECONDS + ").",
            schema = @Schema(type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.INTEGER,
                    minimum = "1", maximum = ApiConfig.LONG_POLL_MAX_SECONDS))
    String timeoutSeconds;

    @HeaderParam("If-None-Match")
    @Parameter(description = "ETags the client has; a match answers 304 without a body.")
    String ifNoneMatch;

    /** How long to wait for a change, or {@code null} when this is not a long poll. */
    Duration longPoll(ApiConfig config) {
        if (waitForChange == null || waitForChange.equalsIgnoreCase("false")) {
            if (timeoutSeconds != null) {
                seconds(config);
            }
            return null;
        }
        if (!waitForChange.equalsIgnoreCase("true")) {
            throw new ApiException(ProblemType.INVALID_PARAMETER, "waitForChange must be true or false, got " + PathNames.quote(waitForChange));
        }
        return timeoutSeconds == null ? config.longPollDefaultTimeout() : seconds(config);
    }

    private Duration seconds(ApiConfig config) {
        long max = config.longPollMaxTimeout().toSeconds();
        try {
            long seconds = Long.parseLong(timeoutSeconds);
            if (seconds >= 1 && seconds <= max) {
                return Duration.ofSeconds(seconds);
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new ApiException(ProblemType.INVALID_PARAMETER, "timeoutSeconds must be a whole number from 1 to " + max + ", got "
                + PathNames.quote(timeoutSeconds));
    }

    /** Whether {@code etag} is the one the long poll waits on ({@code lastEtag}), quoted or not. */
    boolean isLastEtag(String etag) {
        return lastEtag != null && etag != null && unquote(lastEtag).equals(unquote(etag));
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
