package dev.dra.sidecar.snapshot;

import java.util.Map;

/**
 * Everything served at one moment. Immutable; a new one replaces it when decoded content changes.
 *
 * @param sequence increases with every published snapshot
 * @param claimSets one per {@link ClaimKind}
 */
public record MetadataSnapshot(long sequence, Map<ClaimKind, ClaimSet> claimSets) {

    public ClaimSet claims(ClaimKind kind) {
        return claimSets.get(kind);
    }
}
