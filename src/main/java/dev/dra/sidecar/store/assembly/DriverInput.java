package dev.dra.sidecar.store.assembly;

import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.FileState;
import dev.dra.sidecar.snapshot.Served;

/**
 * One driver's metadata for one request of one claim, as its source serves it now: what snapshots are built from,
 * whatever the source. Either an object is served ({@code object} is not {@code null}: the latest one, or the last
 * good one with {@code staleReason}) or, when none is, {@code failure} is.
 *
 * @param kind the kind of claim readers find it under
 * @param claim the claim's name, as readers see it
 * @param request the request's name
 * @param driver the driver's name
 * @param fileName {@code <driver>-metadata.json}: a request's drivers are listed and merged in byte order of it
 * @param path where it comes from, as readers are shown it
 * @param state what is served of it
 * @param object the decoded object served; {@code null} when {@code failure} is served
 * @param sourceVersion the apiVersion {@code object} was decoded from
 * @param staleReason why {@code object} is not the latest read ({@code <code>: <detail>}); {@code null} when it is
 * @param failure what is served when no object is; else {@code null}
 */
public record DriverInput(ClaimKind kind, String claim, String request, String driver, String fileName, String path,
        FileState state, DeviceMetadata object, String sourceVersion, String staleReason, Served.Unavailable failure) {}
