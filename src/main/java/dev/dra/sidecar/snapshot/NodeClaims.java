package dev.dra.sidecar.snapshot;

import java.util.Map;
import java.util.Optional;

/**
 * Node mode: the claims of every pod of the node, each apart, so that a pod's view can be made of its own claims
 * only. Published with each {@link MetadataSnapshot} of the same sequence; immutable.
 *
 * @param scopes one snapshot per claim, holding only that claim's files (under the name its containers see)
 */
public record NodeClaims(long sequence, Map<Scope, MetadataSnapshot> scopes) {

    public static final NodeClaims NONE = new NodeClaims(0, Map.of());

    /**
     * One claim of the cluster, as its files' decoded metadata name it.
     *
     * @param claim the ResourceClaim's name (for a claim made from a template, the generated name)
     */
    public record Scope(ClaimKind kind, String namespace, String claim) {}

    /** The entry of {@code scope}'s claim under {@code directory}, the name the pod's containers see it by. */
    public Optional<ClaimEntry> claim(Scope scope, String directory) {
        MetadataSnapshot snapshot = scopes.get(scope);
        return snapshot == null ? Optional.empty()
                : Optional.ofNullable(snapshot.claims(scope.kind()).claims().get(directory));
    }
}
