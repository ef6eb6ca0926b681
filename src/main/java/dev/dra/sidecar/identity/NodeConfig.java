package dev.dra.sidecar.identity;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** Settings of node mode, under {@code dra.metadata.node} (env {@code DRA_METADATA_NODE_*}). */
@ConfigMapping(prefix = "dra.metadata.node")
public interface NodeConfig {

    /**
     * The node whose pods are served; without it, the env {@code NODE_NAME} (the downward API's
     * {@code spec.nodeName}).
     */
    Optional<String> name();

    /** {@link #name()}, else {@code NODE_NAME}; empty when neither is set. */
    default String nodeName() {
        return name().or(() -> Optional.ofNullable(System.getenv("NODE_NAME"))).orElse("").strip();
    }

    /**
     * The audience a pod's projected service account token must have: itself for the pod's view, or followed by
     * {@code /<container>} for that container's ({@code ViewAudience}).
     */
    @WithDefault("dra-metadata-sidecar")
    String audience();

    /**
     * The longest a request waits on the API server: to look up a pod the watch has not brought yet, to fetch the
     * issuer's keys for a token that names one not held, or for a TokenReview while no keys have been had. Longer is
     * answered {@code 503 identity-unavailable}.
     */
    @WithDefault("2s")
    Duration lookupTimeout();

    /**
     * How long a TokenReview's verdict is reused (only while no issuer keys are held); never past the token's
     * expiry.
     */
    @WithDefault("10s")
    Duration tokenCacheTtl();

    /** At most this many verdicts are kept, keyed by the token's SHA-256. */
    @WithDefault("1024")
    int tokenCacheSize();
}
