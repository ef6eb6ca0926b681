package dev.dra.sidecar.api;

import dev.dra.sidecar.snapshot.ClaimEntry;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.DriverEntry;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.RequestEntry;

/**
 * Finds what a path names in a snapshot, or says in a {@code 404 not-found} what is not there. Shared by the
 * JAX-RS resources and the fast read path, so both answer the same.
 */
final class SnapshotLookup {

    private SnapshotLookup() {}

    static ClaimEntry claim(MetadataSnapshot snapshot, ClaimKind kind, String claim) {
        ClaimEntry entry = snapshot.claims(kind).claims().get(claim);
        if (entry == null) {
            throw ApiException.notFound("no " + noun(kind) + " " + claim + " in this container; the sidecar container "
                    + "sees only the claims listed in its own resources.claims");
        }
        return entry;
    }

    static RequestEntry request(MetadataSnapshot snapshot, ClaimKind kind, String claim, String request) {
        RequestEntry entry = claim(snapshot, kind, claim).requests().get(request);
        if (entry == null) {
            throw ApiException.notFound("no request " + request + " in " + noun(kind) + " " + claim);
        }
        return entry;
    }

    static DriverEntry driver(MetadataSnapshot snapshot, ClaimKind kind, String claim, String request, String driver) {
        DriverEntry entry = request(snapshot, kind, claim, request).drivers().get(driver);
        if (entry == null) {
            throw ApiException.notFound("no metadata of driver " + driver + " for request " + request + " of "
                    + noun(kind) + " " + claim);
        }
        return entry;
    }

    static String noun(ClaimKind kind) {
        return kind == ClaimKind.CLAIM ? "claim" : "template claim";
    }
}
