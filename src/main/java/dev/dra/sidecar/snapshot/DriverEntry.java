package dev.dra.sidecar.snapshot;

import dev.dra.sidecar.decode.Violation;
import java.util.List;

/**
 * One driver's file of a request.
 *
 * @param driver the driver name, from the file name {@code <driver>-metadata.json}
 * @param path the file's path, as the container sees it
 * @param state what is served from the file
 * @param served the driver's complete object (with all of its metadata), or its failure
 * @param violations the upstream validation violations of the object served (the last good one while stale
 *     or detached); {@code null} if the file never decoded
 */
public record DriverEntry(String driver, String path, FileState state, Served served, List<Violation> violations) {}
