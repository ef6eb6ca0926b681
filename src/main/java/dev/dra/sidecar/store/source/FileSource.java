package dev.dra.sidecar.store.source;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Where the store finds its metadata files: the container's own tree (sidecar mode) or the host files the CDI specs
 * of a node name (node mode). Chosen once, when the store is made ({@link FileSourceFactory}).
 */
public interface FileSource {

    /**
     * What one scan found.
     *
     * @param files every metadata file found and admitted
     * @param refused how many more were found and not admitted
     * @param directories the directories to watch for new files (for the container's tree: root, kind, claim and
     *     request directories)
     * @param rootExists whether {@link #root()} itself is there
     */
    record Scan(List<MetadataFileRef> files, int refused, List<Path> directories, boolean rootExists) {

        static Scan missing() {
            return new Scan(List.of(), 0, List.of(), false);
        }
    }

    /**
     * Whether the store takes a file a scan found: it tracks it already, or its bookkeeping still fits the memory
     * bound (then it is charged for it). Asked once per file and scan.
     */
    @FunctionalInterface
    interface Admission {
        boolean admit(Path path);
    }

    /**
     * The metadata files there are now that {@code admission} admits, how many it did not, the directories to watch
     * for new ones, and whether the source exists. A file not admitted costs the scan no memory beyond its count, and
     * a directory is listed to watch only when it holds an admitted file or no file was refused until it was walked,
     * so that a tree far larger than the bound costs what the bound allows, not what the tree holds.
     */
    Scan scan(Admission admission);

    /**
     * Where {@code path} (of a file the last scan found) leads now, or {@code null} when it leads somewhere this
     * source must not read.
     *
     * @throws java.nio.file.NoSuchFileException when the path no longer leads anywhere
     */
    Path resolveInside(Path path) throws IOException;

    /** What {@link #scan} reads: the metadata root, or the CDI spec directory. */
    Path root();

    /** The warning logged when {@link #root()} is missing: what it means and what to do. */
    String missingRootWarning();

    /**
     * Whether {@link #scan} reads the files of {@code directory} (the CDI specs): then a file changed there in place
     * may change what a scan finds.
     */
    default boolean walkReadsFilesOf(Path directory) {
        return false;
    }

    /**
     * Whether a file's claim is known only from its decoded content (node mode: claims of several namespaces share
     * one store, and the store publishes {@link dev.dra.sidecar.snapshot.NodeClaims} beside its snapshot).
     */
    default boolean claimsByContent() {
        return false;
    }
}
