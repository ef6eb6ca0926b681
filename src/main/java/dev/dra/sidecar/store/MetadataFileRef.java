package dev.dra.sidecar.store;

import dev.dra.sidecar.snapshot.ClaimKind;
import java.nio.file.Path;

/**
 * Where one metadata file sits in the tree: {@code <root>/<kind dir>/<claim>/<request>/<driver>-metadata.json}.
 *
 * @param fileName {@code <driver>-metadata.json}, the merge order key
 */
record MetadataFileRef(ClaimKind kind, String claim, String request, String driver, String fileName, Path path) {

    static final String SUFFIX = "-metadata.json";
}
