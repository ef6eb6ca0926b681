package dev.dra.sidecar.store.assembly;

import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.model.ObjectMeta;
import dev.dra.sidecar.snapshot.ClaimEntry;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.ClaimSet;
import dev.dra.sidecar.snapshot.DerivedClaims;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.NodeClaims;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Node mode: sorts what the sources serve by the claim its decoded metadata names, and builds each claim's snapshot
 * with {@link SnapshotBuilder} as the sidecar builds its own. A file belongs to a claim only when its content agrees
 * with the path it has in the container: under {@code resourceclaims/<claim>/} its {@code metadata.name} is
 * {@code <claim>}, under {@code resourceclaimtemplates/<podClaimName>/} its {@code podClaimName} (when it has one)
 * is {@code <podClaimName>}, and it names a namespace. Any other file, and one that never decoded, belongs to no
 * claim and is served to no pod.
 */
public final class ClaimScopes {

    private ClaimScopes() {}

    /**
     * Every claim's snapshot apart, numbered {@code sequence}, from {@code files} in any order and, for each
     * (claim, request, driver) no file of the claim serves, what {@code derived} has for it ({@link SourceMerge}).
     */
    public static NodeClaims build(long sequence, Collection<DriverInput> files, DerivedClaims derived) {
        Map<NodeClaims.Scope, List<DriverInput>> byScope = new HashMap<>();
        for (DriverInput file : files) {
            NodeClaims.Scope scope = scope(file);
            if (scope != null) {
                byScope.computeIfAbsent(scope, s -> new ArrayList<>()).add(file);
            }
        }
        derived.claims().forEach((scope, claim) -> byScope.putIfAbsent(scope, List.of()));
        Map<NodeClaims.Scope, MetadataSnapshot> scopes = new HashMap<>();
        byScope.forEach((scope, scoped) -> {
            DerivedClaims.Claim claim = derived.claims().get(scope);
            scopes.put(scope, SnapshotBuilder.build(sequence, claim == null ? scoped
                    : SourceMerge.merge(scoped, new DerivedClaims(Map.of(scope, claim)))));
        });
        return new NodeClaims(sequence, Collections.unmodifiableMap(scopes));
    }

    private static NodeClaims.Scope scope(DriverInput file) {
        DeviceMetadata object = file.object();
        if (object == null) {
            return null;
        }
        ObjectMeta meta = object.metadata();
        if (meta == null || isEmpty(meta.namespace()) || isEmpty(meta.name())) {
            return null;
        }
        boolean agrees = file.kind() == ClaimKind.CLAIM ? file.claim().equals(meta.name())
                : object.podClaimName() == null || file.claim().equals(object.podClaimName());
        return agrees ? new NodeClaims.Scope(file.kind(), meta.namespace(), meta.name()) : null;
    }

    private static boolean isEmpty(String value) {
        return value == null || value.isEmpty();
    }

    /**
     * {@code claim} as a container that lists only {@code requests} of it sees it: those requests only, and its body
     * made of them; {@code null} when it has none of them yet.
     */
    public static ClaimEntry restricted(ClaimEntry claim, Set<String> requests) {
        return SnapshotBuilder.restricted(claim, requests);
    }

    /**
     * A snapshot of the given claims only, each under the name a pod's containers see it by: the pod's view. Claim
     * entries are served as they are; only the two claim lists are encoded here.
     *
     * @param claims per kind, the pod's claims by the name its containers see them by
     */
    public static MetadataSnapshot view(long sequence, Map<ClaimKind, SortedMap<String, ClaimEntry>> claims) {
        Map<ClaimKind, ClaimSet> sets = new EnumMap<>(ClaimKind.class);
        for (ClaimKind kind : ClaimKind.values()) {
            SortedMap<String, ClaimEntry> entries = new TreeMap<>(claims.getOrDefault(kind, Collections.emptySortedMap()));
            sets.put(kind, SnapshotBuilder.indexed(Collections.unmodifiableSortedMap(entries)));
        }
        return new MetadataSnapshot(sequence, Collections.unmodifiableMap(sets));
    }
}
