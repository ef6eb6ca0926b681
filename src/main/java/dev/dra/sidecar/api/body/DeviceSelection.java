package dev.dra.sidecar.api.body;

import dev.dra.sidecar.api.problem.ApiException;
import dev.dra.sidecar.api.read.SnapshotLookup;
import dev.dra.sidecar.snapshot.ClaimEntry;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.DeviceEntry;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.MetadataSource;
import dev.dra.sidecar.snapshot.RequestEntry;
import dev.dra.sidecar.snapshot.Served;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The devices an answer covers, in serving order, with where each comes from: those of one request
 * ({@link #ofRequest}), or those of every claim and request of the snapshot that a {@link DeviceFilter} keeps
 * ({@link #ofPod}). A request whose metadata cannot be served fails the selection with its file's problem, as a
 * claim's read does: a list is never silently shorter because a file is being written.
 *
 * @param sourceVersions the apiVersions decoded for the selected request, or {@code null} for a pod-wide selection
 * @param staleReason why some of what is selected is not its file's latest content, or {@code null}
 * @param sources where the selected requests' metadata comes from: the
 *     {@link dev.dra.sidecar.snapshot.MetadataSource} labels, comma-separated in claim, request and merge order
 */
public record DeviceSelection(List<Selected> devices, String sourceVersions, String staleReason, String sources) {

    /** One selected device and the claim and request it belongs to. */
    record Selected(ClaimKind kind, String claim, String request, DeviceEntry device) {}

    /**
     * The devices of one request, only those of {@code driver} and {@code pool} when given ({@code null}: any);
     * {@code 404 not-found} for a claim or request that is not there.
     */
    public static DeviceSelection ofRequest(MetadataSnapshot snapshot, ClaimKind kind, String claim, String request,
            String driver, String pool) {
        RequestEntry entry = SnapshotLookup.request(snapshot, kind, claim, request);
        Served.Available merged = servable(entry);
        List<Selected> devices = new ArrayList<>();
        for (DeviceEntry device : entry.devices()) {
            if ((driver == null || driver.equals(device.driver())) && (pool == null || pool.equals(device.pool()))) {
                devices.add(new Selected(kind, claim, request, device));
            }
        }
        return new DeviceSelection(List.copyOf(devices), merged.sourceVersions(), merged.staleReason(),
                merged.sources());
    }

    /** Every device of every claim kind, claim (by name) and request (by name) that {@code filter} keeps. */
    public static DeviceSelection ofPod(MetadataSnapshot snapshot, DeviceFilter filter) {
        List<Selected> devices = new ArrayList<>();
        Set<String> staleReasons = new LinkedHashSet<>();
        List<MetadataSource> sources = new ArrayList<>();
        for (ClaimKind kind : ClaimKind.values()) {
            if (!filter.keepsKind(kind)) {
                continue;
            }
            for (ClaimEntry claim : snapshot.claims(kind).claims().values()) {
                if (!filter.keepsClaim(claim.name())) {
                    continue;
                }
                for (RequestEntry request : claim.requests().values()) {
                    if (!filter.keepsRequest(request.name())) {
                        continue;
                    }
                    Served.Available merged = servable(request);
                    if (merged.staleReason() != null) {
                        staleReasons.add(merged.staleReason());
                    }
                    request.drivers().values().forEach(driver -> sources.add(driver.source()));
                    for (DeviceEntry device : request.devices()) {
                        if (filter.keepsDevice(device)) {
                            devices.add(new Selected(kind, claim.name(), request.name(), device));
                        }
                    }
                }
            }
        }
        return new DeviceSelection(List.copyOf(devices), null,
                staleReasons.isEmpty() ? null : String.join("; ", staleReasons), MetadataSource.labels(sources));
    }

    private static Served.Available servable(RequestEntry request) {
        if (request.merged() instanceof Served.Unavailable failure) {
            throw ApiException.unavailable(failure);
        }
        return (Served.Available) request.merged();
    }
}
