package dev.dra.sidecar.store.source;

import dev.dra.sidecar.decode.gojson.SharedStrings;
import dev.dra.sidecar.snapshot.ClaimKind;
import java.nio.file.Path;

/**
 * Where one metadata file sits in the tree: {@code <root>/<kind dir>/<claim>/<request>/<driver>-metadata.json}.
 *
 * @param fileName {@code <driver>-metadata.json}, the merge order key
 * @param path the file read
 * @param shown the file's path as the container sees it (the same as {@code path} in the container's own tree)
 */
public record MetadataFileRef(ClaimKind kind, String claim, String request, String driver, String fileName, Path path,
        String shown) {

    static final String SUFFIX = "-metadata.json";

    /** The names many files repeat (a claim's, a request's, a driver's) are held once. */
    public MetadataFileRef {
        claim = SharedStrings.shared(claim);
        request = SharedStrings.shared(request);
        driver = SharedStrings.shared(driver);
        fileName = SharedStrings.shared(fileName);
    }

    /** A file of the container's own tree, where it is read at the path the container sees. */
    public MetadataFileRef(ClaimKind kind, String claim, String request, String driver, String fileName, Path path) {
        this(kind, claim, request, driver, fileName, path, path.toString());
    }
}
