package dev.dra.sidecar.resourceapi;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/**
 * The resource API as a source, under {@code dra.metadata.resource-api} (env {@code DRA_METADATA_RESOURCE_API_*}). In
 * node mode it is always on. In sidecar mode it serves, for each expected claim ({@code dra.metadata.expected-claims},
 * the claims the sidecar's container lists) whose driver wrote no metadata file, what the cluster knows of its
 * devices; it then needs the API server ({@code dra.metadata.kube.*}), the pod's namespace, UID and node, and
 * permission to get, list and watch {@code resourceclaims} in the namespace and {@code resourceslices}.
 */
@ConfigMapping(prefix = "dra.metadata.resource-api")
public interface ResourceApiConfig {

    /** Sidecar mode: whether to serve metadata derived from the resource API where a driver wrote no file. */
    @WithDefault("false")
    boolean enabled();

    /** The pod's namespace; without it, the env {@code POD_NAMESPACE} (downward API {@code metadata.namespace}). */
    Optional<String> namespace();

    /** The pod's UID; without it, the env {@code POD_UID} (downward API {@code metadata.uid}). */
    Optional<String> podUid();

    /** {@link #namespace()}, else {@code POD_NAMESPACE}; empty when neither is set. */
    default String podNamespace() {
        return namespace().or(() -> Optional.ofNullable(System.getenv("POD_NAMESPACE"))).orElse("").strip();
    }

    /** {@link #podUid()}, else {@code POD_UID}; empty when neither is set. */
    default String ownPodUid() {
        return podUid().or(() -> Optional.ofNullable(System.getenv("POD_UID"))).orElse("").strip();
    }
}
