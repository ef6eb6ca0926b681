package dev.dra.sidecar.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Where the store finds its metadata files: the container's own tree ({@link TreeScanner}, sidecar mode) or the
 * host files the CDI specs of a node name ({@link CdiSpecScanner}, node mode). Chosen once, when the store is made.
 */
interface FileSource {

    /** The source {@link StoreConfig#mode()} names. */
    static FileSource of(StoreConfig config) {
        return switch (config.mode()) {
            case SIDECAR -> new TreeScanner(config.root());
            case NODE -> new CdiSpecScanner(config.cdiDir(), config.root(), config.maxFileSize().asLongValue());
        };
    }

    /** Every metadata file there is now, the directories to watch for new ones, and whether the source exists. */
    TreeScanner.Scan scan();

    /**
     * Where {@code path} (of a file the last scan found) leads now, or {@code null} when it leads somewhere this
     * source must not read.
     *
     * @throws java.nio.file.NoSuchFileException when the path no longer leads anywhere
     */
    Path resolveInside(Path path) throws IOException;

    /** What {@link #scan()} reads: the metadata root, or the CDI spec directory. */
    Path root();

    /** The warning logged when {@link #root()} is missing: what it means and what to do. */
    String missingRootWarning();

    /**
     * Whether a file's claim is known only from its decoded content (node mode: claims of several namespaces share
     * one store, and the store publishes {@link dev.dra.sidecar.snapshot.NodeClaims} beside its snapshot).
     */
    default boolean claimsByContent() {
        return false;
    }
}
