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

    RequestKey requestKey() {
        return new RequestKey(kind, claim, request);
    }

    /** Where a request's files live, for diagnostics. */
    record RequestKey(ClaimKind kind, String claim, String request) {
        @Override
        public String toString() {
            return kind.apiSegment() + "/" + claim + "/" + request;
        }
    }
}
