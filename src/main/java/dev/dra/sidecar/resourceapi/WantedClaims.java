package dev.dra.sidecar.resourceapi;

import dev.dra.sidecar.identity.NodePods;
import dev.dra.sidecar.identity.PodInfo;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.store.config.ExpectedClaim;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Which claims the resource-API source derives, in each mode. */
final class WantedClaims {

    private WantedClaims() {}

    /** Node mode: every claim of every pod of the node, all its requests, by the name its containers see it by. */
    static List<WantedClaim> ofNode(NodePods pods) {
        List<WantedClaim> out = new ArrayList<>();
        for (PodInfo pod : pods.all()) {
            for (PodInfo.Claim claim : pod.claims()) {
                out.add(new WantedClaim(claim.kind(), pod.namespace(), claim.claim(), claim.directory(), pod.uid(),
                        Set.of()));
            }
        }
        return out;
    }

    /**
     * Sidecar mode: the expected claims (what the sidecar's container lists), each with the requests named for it, or
     * every request when an entry names none; a template claim is found by the pod's UID and its pod claim name.
     */
    static List<WantedClaim> ofSidecar(List<ExpectedClaim> expected, String namespace, String podUid) {
        Map<ExpectedClaim, Set<String>> requests = new LinkedHashMap<>();
        for (ExpectedClaim entry : expected) {
            ExpectedClaim claim = new ExpectedClaim(entry.kind(), entry.claim(), null);
            Set<String> named = requests.computeIfAbsent(claim, c -> new LinkedHashSet<>());
            if (entry.request() == null) {
                named.add(null);
            } else {
                named.add(entry.request());
            }
        }
        List<WantedClaim> out = new ArrayList<>();
        requests.forEach((claim, named) -> out.add(new WantedClaim(claim.kind(), namespace,
                claim.kind() == ClaimKind.CLAIM ? claim.claim() : null, claim.claim(), podUid,
                named.contains(null) ? Set.of() : Set.copyOf(named))));
        return out;
    }
}
