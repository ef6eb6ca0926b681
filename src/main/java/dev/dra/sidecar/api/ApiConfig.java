package dev.dra.sidecar.api;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/** Settings of the HTTP API, under {@code dra.api} (env {@code DRA_API_*}). */
@ConfigMapping(prefix = "dra.api")
public interface ApiConfig {

    /** Default of {@link #longPollDefaultTimeout()} in seconds; a constant so the OpenAPI document states it. */
    String LONG_POLL_DEFAULT_SECONDS = "60";

    /** Default of {@link #longPollMaxTimeout()} in seconds; a constant so the OpenAPI document states it. */
    String LONG_POLL_MAX_SECONDS = "300";

    /**
     * Host header values the API answers to, with or without a port; anything else gets
     * {@code 400 invalid-host}. Guards the loopback API against DNS rebinding from a browser.
     */
    @WithDefault("localhost,127.0.0.1,[::1]")
    List<String> allowedHosts();

    /** Long-poll wait when {@code timeoutSeconds} is not given. */
    @WithDefault(LONG_POLL_DEFAULT_SECONDS + "s")
    Duration longPollDefaultTimeout();

    /** The longest long-poll wait a client may ask for. */
    @WithDefault(LONG_POLL_MAX_SECONDS + "s")
    Duration longPollMaxTimeout();

    /**
     * Long polls that may wait at once. One more is refused at once with {@code 503 too-many-long-polls} (with
     * {@code Retry-After}, closing its connection). Sized with {@code quarkus.http.limits.max-connections} so that
     * waiters, their connections and the plain reads beside them fit the pod's memory limit.
     */
    @WithDefault("500")
    int maxLongPolls();

    /**
     * Requests with a body that may be read at once: {@code POST /validate} reads up to
     * {@code quarkus.http.limits.max-body-size} and decodes it. One more is refused before its body is read, with
     * {@code 503 too-many-request-bodies} (with {@code Retry-After}, closing its connection). Sized so that that
     * many bodies, and their decoding, fit the heap beside everything else.
     */
    @WithDefault("2")
    int maxRequestBodies();
}
