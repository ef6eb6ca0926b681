package dev.dra.sidecar.api.read;

import dev.dra.sidecar.api.path.PathNames;
import dev.dra.sidecar.api.problem.ApiException;
import dev.dra.sidecar.api.problem.ProblemType;
import dev.dra.sidecar.snapshot.AttributeValue;
import dev.dra.sidecar.snapshot.ClaimEntry;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.DeviceEntry;
import dev.dra.sidecar.snapshot.DriverEntry;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.RequestEntry;
import dev.dra.sidecar.snapshot.Served;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Finds what a path names in a snapshot. The {@code find*} methods answer "absent" with an empty Optional (the fast
 * read path then leaves the request to the resources); the others throw {@code 404 not-found} saying what is not
 * there, {@code 409 ambiguous-device} for a device name several devices share, and the file's problem when the
 * request's metadata cannot be served. Shared by both read paths, so both answer the same.
 */
public final class SnapshotLookup {

    private SnapshotLookup() {}

    static Optional<ClaimEntry> findClaim(MetadataSnapshot snapshot, ClaimKind kind, String claim) {
        return Optional.ofNullable(snapshot.claims(kind).claims().get(claim));
    }

    static Optional<RequestEntry> findRequest(MetadataSnapshot snapshot, ClaimKind kind, String claim, String request) {
        return findClaim(snapshot, kind, claim).map(c -> c.requests().get(request));
    }

    static Optional<DriverEntry> findDriver(MetadataSnapshot snapshot, ClaimKind kind, String claim, String request,
            String driver) {
        return findRequest(snapshot, kind, claim, request).map(r -> r.drivers().get(driver));
    }

    public static ClaimEntry claim(MetadataSnapshot snapshot, ClaimKind kind, String claim) {
        return findClaim(snapshot, kind, claim).orElseThrow(() -> notFound("no " + noun(kind) + " " + claim
                + " in this container; the sidecar container sees only the claims listed in its own resources.claims"));
    }

    public static RequestEntry request(MetadataSnapshot snapshot, ClaimKind kind, String claim, String request) {
        RequestEntry entry = claim(snapshot, kind, claim).requests().get(request);
        if (entry == null) {
            throw notFound("no request " + request + " in " + noun(kind) + " " + claim);
        }
        return entry;
    }

    public static DriverEntry driver(MetadataSnapshot snapshot, ClaimKind kind, String claim, String request, String driver) {
        DriverEntry entry = request(snapshot, kind, claim, request).drivers().get(driver);
        if (entry == null) {
            throw notFound("no metadata of driver " + driver + " for request " + request + " of " + noun(kind) + " "
                    + claim);
        }
        return entry;
    }

    /**
     * The value of {@code attribute} of the one device named {@code device} in the request, among the devices of
     * {@code driver} and {@code pool} when they are given ({@code null}: any).
     */
    public static AttributeValue attribute(MetadataSnapshot snapshot, ClaimKind kind, String claim, String request,
            String device, String attribute, String driver, String pool) {
        RequestEntry entry = request(snapshot, kind, claim, request);
        if (entry.merged() instanceof Served.Unavailable failure) {
            throw ApiException.unavailable(failure);
        }
        List<DeviceEntry> matches = entry.devices().stream()
                .filter(d -> device.equals(d.name()))
                .filter(d -> driver == null || driver.equals(d.driver()))
                .filter(d -> pool == null || pool.equals(d.pool()))
                .toList();
        if (matches.isEmpty()) {
            throw notFound("no device " + PathNames.quote(device) + " in request " + request + " of " + noun(kind) + " "
                    + claim + (driver == null && pool == null ? "" : " with that driver and pool"));
        }
        if (matches.size() > 1) {
            throw new ApiException(ProblemType.AMBIGUOUS_DEVICE, "request " + request + " has " + matches.size()
                    + " devices named " + PathNames.quote(device) + " ("
                    + matches.stream().map(d -> "driver=" + d.driver() + " pool=" + d.pool()).collect(Collectors.joining(", "))
                    + "); pick one with ?driver= and/or ?pool=");
        }
        AttributeValue value = matches.get(0).attributes().get(attribute);
        if (value == null) {
            throw notFound("device " + PathNames.quote(device) + " has no attribute " + PathNames.quote(attribute));
        }
        return value;
    }

    private static ApiException notFound(String detail) {
        return new ApiException(ProblemType.NOT_FOUND, detail);
    }

    private static String noun(ClaimKind kind) {
        return kind == ClaimKind.CLAIM ? "claim" : "template claim";
    }
}
