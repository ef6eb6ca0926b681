package dev.dra.sidecar.resourceapi;

import dev.dra.sidecar.snapshot.ClaimKind;
import java.util.Set;

/**
 * A claim whose derived metadata is wanted, as a pod's containers see it.
 *
 * @param namespace the pod's namespace
 * @param claim the ResourceClaim's name; {@code null} for a claim made from a template whose name is not known yet
 *     (it is then found by {@code podUid} and the pod claim name, {@code directory})
 * @param directory the name the containers see it by: the claim's name, or the pod's claim name of a template claim
 * @param podUid the pod's UID, to find its template claims by; may be {@code null} when {@code claim} is known
 * @param requests the top-level requests wanted; empty for every request of the claim
 */
public record WantedClaim(ClaimKind kind, String namespace, String claim, String directory, String podUid,
        Set<String> requests) {

    /** Whether {@code request} of the claim is wanted. */
    boolean wants(String request) {
        return requests.isEmpty() || requests.contains(request);
    }

    /** Whether {@code candidate} is this claim: by name, or for a template claim of the pod, by its pod claim name. */
    boolean is(AllocatedClaim candidate) {
        if (!candidate.namespace().equals(namespace)) {
            return false;
        }
        if (claim != null) {
            return candidate.name().equals(claim);
        }
        return kind == ClaimKind.TEMPLATE_CLAIM && directory.equals(candidate.podClaimName()) && podUid != null
                && podUid.equals(candidate.ownerPodUid());
    }
}
