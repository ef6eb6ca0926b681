package dev.dra.sidecar.snapshot;

import dev.dra.sidecar.decode.Violation;
import java.util.List;

/**
 * One driver's metadata of a request: its file, or what the resource API says where the driver wrote none.
 *
 * @param driver the driver name, from the file name {@code <driver>-metadata.json}
 * @param path the file's path, as the container sees it; {@code null} for metadata from the resource API
 * @param state what is served from the file ({@link FileState#OK} for metadata from the resource API)
 * @param served the driver's complete object (with all of its metadata), or its failure
 * @param violations the upstream validation violations of the object served (the last good one while stale
 *     or detached); {@code null} if the file never decoded, and for metadata from the resource API (no file)
 * @param source where the metadata comes from
 */
public record DriverEntry(String driver, String path, FileState state, Served served, List<Violation> violations,
        MetadataSource source) {

    /** The end of a metadata file's name, {@code <driver>-metadata.json}. */
    public static final String FILE_SUFFIX = "-metadata.json";

    /**
     * The name of {@code driver}'s metadata file: a request's drivers are listed and merged in byte order of it,
     * whether each has its file or not.
     */
    public static String fileName(String driver) {
        return driver + FILE_SUFFIX;
    }
}
