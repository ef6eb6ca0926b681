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
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What one caller may see: the pod's view (every claim of the pod) or one container's (the claims and requests it
 * lists, and its own extended resources, as the kubelet mounts them into it), each claim under the name the
 * containers see it by. Immutable; made for one {@link PodInfo}, one container (or none) and one {@link NodeClaims}.
 */
public final class PodView {

    private final PodInfo pod;
    private final String container;
    private final NodeClaims claims;
    private final MetadataSnapshot snapshot;
    private final List<PodInfo.ExtendedResource> extended;
    private final Served.Available extendedIndex;

    /**
     * @param container the container whose view it is, {@code ""} for the pod's; one of the pod's containers or
     *     init containers
     */
    PodView(PodInfo pod, String container, NodeClaims claims) {
        this.pod = pod;
        this.container = container;
        this.claims = claims;
        Map<ClaimKind, SortedMap<String, ClaimEntry>> own = new EnumMap<>(ClaimKind.class);
        seen(pod, container).forEach((claim, requests) -> claims.claim(
                new NodeClaims.Scope(claim.kind(), pod.namespace(), claim.claim()), claim.directory())
                .map(entry -> requests.isEmpty() ? entry : ClaimScopes.restricted(entry, requests))
                .ifPresent(entry -> own.computeIfAbsent(claim.kind(), k -> new TreeMap<>())
                        .put(claim.directory(), entry)));
        this.snapshot = ClaimScopes.view(claims.sequence(), own);
        this.extended = pod.extended().stream()
                .filter(resource -> container.isEmpty() || resource.container().equals(container)).toList();
        Map<String, List<ExtendedResourceIndex.Resource>> byContainer = new LinkedHashMap<>();
        for (PodInfo.ExtendedResource resource : extended) {
            byContainer.computeIfAbsent(resource.container(), c -> new ArrayList<>()).add(
                    new ExtendedResourceIndex.Resource(resource.resource(), resource.claim(), resource.request()));
        }
        List<ExtendedResourceIndex.Container> containers = new ArrayList<>();
        byContainer.forEach((name, resources) -> containers.add(new ExtendedResourceIndex.Container(name, resources)));
        this.extendedIndex = BodyEncoding.encode(new ExtendedResourceIndex(containers));
    }

    /** The claims {@code container} sees ({@code ""}: every claim of the pod), each with its requests (none: all). */
    private static Map<PodInfo.Claim, Set<String>> seen(PodInfo pod, String container) {
        if (!container.isEmpty()) {
            return pod.container(container).claims();
        }
        Map<PodInfo.Claim, Set<String>> all = new LinkedHashMap<>();
        pod.claims().forEach(claim -> all.put(claim, Set.of()));
        return all;
    }

    public PodInfo pod() {
        return pod;
    }

    /** The pod's snapshot: its own claims, nothing else. */
    public MetadataSnapshot snapshot() {
        return snapshot;
    }

    /** The container whose view it is, {@code ""} for the pod's. */
    public String container() {
        return container;
    }

    /** Whether the caller sees a claim named {@code directory} of {@code kind}. */
    public boolean owns(ClaimKind kind, String directory) {
        PodInfo.Claim claim = pod.claim(kind, directory);
        return claim != null && (container.isEmpty() || pod.container(container).claims().containsKey(claim));
    }

    /** Who the caller is, in words: {@code pod <namespace>/<name>}, or {@code container <c> of pod <namespace>/<name>}. */
    public String caller() {
        return (container.isEmpty() ? "" : "container " + container + " of ") + "pod " + pod.namespace() + "/"
                + pod.name();
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

    /** {@code {"containers":[...]}}, the extended resources the caller sees. */
    public Served.Available extendedIndex() {
        return extendedIndex;
    }

    /**
     * The claim and request that serve {@code container}'s extended resource {@code resource}, if the caller sees it
     * (a container's view sees its own container's only).
     */
    public Optional<PodInfo.ExtendedResource> extended(String container, String resource) {
        return extended.stream().filter(r -> r.container().equals(container) && r.resource().equals(resource))
                .findFirst();
    }
}
