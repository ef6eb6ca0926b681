package dev.dra.sidecar.identity;

import dev.dra.sidecar.model.ExtendedResourceIndex;
import dev.dra.sidecar.snapshot.BodyEncoding;
import dev.dra.sidecar.snapshot.ClaimEntry;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.NodeClaims;
import dev.dra.sidecar.snapshot.Served;
import dev.dra.sidecar.store.assembly.ClaimScopes;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What one pod may see: a snapshot made of its own claims only, each under the name its containers see it by, and
 * its extended resources. Immutable; made for one {@link PodInfo} and one {@link NodeClaims}.
 */
public final class PodView {

    private final PodInfo pod;
    private final NodeClaims claims;
    private final MetadataSnapshot snapshot;
    private final Served.Available extendedIndex;

    PodView(PodInfo pod, NodeClaims claims) {
        this.pod = pod;
        this.claims = claims;
        Map<ClaimKind, SortedMap<String, ClaimEntry>> own = new EnumMap<>(ClaimKind.class);
        for (PodInfo.Claim claim : pod.claims()) {
            claims.claim(new NodeClaims.Scope(claim.kind(), pod.namespace(), claim.claim()), claim.directory())
                    .ifPresent(entry -> own.computeIfAbsent(claim.kind(), k -> new TreeMap<>())
                            .put(claim.directory(), entry));
        }
        this.snapshot = ClaimScopes.view(claims.sequence(), own);
        Map<String, List<ExtendedResourceIndex.Resource>> byContainer = new LinkedHashMap<>();
        for (PodInfo.ExtendedResource resource : pod.extended()) {
            byContainer.computeIfAbsent(resource.container(), c -> new ArrayList<>()).add(
                    new ExtendedResourceIndex.Resource(resource.resource(), resource.claim(), resource.request()));
        }
        List<ExtendedResourceIndex.Container> containers = new ArrayList<>();
        byContainer.forEach((name, resources) -> containers.add(new ExtendedResourceIndex.Container(name, resources)));
        this.extendedIndex = BodyEncoding.encode(new ExtendedResourceIndex(containers));
    }

    public PodInfo pod() {
        return pod;
    }

    /** The pod's snapshot: its own claims, nothing else. */
    public MetadataSnapshot snapshot() {
        return snapshot;
    }

    /** Whether the pod's containers see a claim named {@code directory} of {@code kind}. */
    public boolean owns(ClaimKind kind, String directory) {
        return pod.claim(kind, directory) != null;
    }

    /** Whether each of the pod's claims has its files in the view. */
    boolean complete() {
        for (PodInfo.Claim claim : pod.claims()) {
            if (claims.claim(new NodeClaims.Scope(claim.kind(), pod.namespace(), claim.claim()), claim.directory())
                    .isEmpty()) {
                return false;
            }
        }
        return pod.unmapped().isEmpty();
    }

    NodeClaims claims() {
        return claims;
    }

    /** {@code {"containers":[...]}}, the pod's extended resources. */
    public Served.Available extendedIndex() {
        return extendedIndex;
    }

    /** The claim and request that serve {@code container}'s extended resource {@code resource}, if it has it. */
    public Optional<PodInfo.ExtendedResource> extended(String container, String resource) {
        return pod.extended().stream().filter(r -> r.container().equals(container) && r.resource().equals(resource))
                .findFirst();
    }
}
