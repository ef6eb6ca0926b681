package dev.dra.sidecar.snapshot;

import dev.dra.sidecar.model.DeviceMetadata;
import java.util.Map;
import java.util.SortedMap;

/**
 * Metadata the cluster knows without a file: per claim, the {@code DeviceMetadata} a driver would write for each of
 * its top-level requests, made from the claim's allocation, the driver's ResourceSlices and the claim's status.
 * The store serves such an object for a (claim, request, driver) that has no metadata file; a file always wins.
 * Immutable.
 *
 * @param claims keyed by the claim (its namespace is the pod's in sidecar mode)
 */
public record DerivedClaims(Map<NodeClaims.Scope, Claim> claims) {

    /** Nothing derived: the store serves its files alone. */
    public static final DerivedClaims NONE = new DerivedClaims(Map.of());

    /**
     * One claim's derived objects.
     *
     * @param directory the name a pod's containers see the claim by: the claim's name, or the pod's claim name for
     *     a claim made from a template
     * @param requests per top-level request (sorted), per driver (sorted by name), the object that driver's file
     *     would hold
     */
    public record Claim(String directory, SortedMap<String, SortedMap<String, DeviceMetadata>> requests) {}
}
