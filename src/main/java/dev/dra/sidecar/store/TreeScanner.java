package dev.dra.sidecar.store;

import dev.dra.sidecar.snapshot.ClaimKind;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the metadata files of both layouts, only at the depths the layout allows:
 * {@code <root>/resourceclaims/<claim>/<request>/<driver>-metadata.json} and the same under
 * {@code resourceclaimtemplates}. Other files and deeper paths are ignored; a symbolic link is followed only
 * when it resolves inside the root. Nothing is ever written.
 */
final class TreeScanner implements FileSource {

    /**
     * @param files every metadata file found
     * @param directories every directory of the tree (root, kind, claim and request directories), to watch
     * @param rootExists whether the root itself is there
     */
    record Scan(List<MetadataFileRef> files, List<Path> directories, boolean rootExists) {}

    private final Path root;

    TreeScanner(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    @Override
    public Path root() {
        return root;
    }

    @Override
    public String missingRootWarning() {
        return "Metadata root " + root + " does not exist: no claim is visible to this container. List every claim "
                + "in the sidecar container's own resources.claims; kubelet mounts only those.";
    }

    @Override
    public Scan scan() {
        List<MetadataFileRef> files = new ArrayList<>();
        List<Path> directories = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return new Scan(files, directories, false);
        }
        Path realRoot;
        try {
            realRoot = root.toRealPath();
        } catch (IOException e) {
            return new Scan(files, directories, false);
        }
        directories.add(root);
        for (ClaimKind kind : ClaimKind.values()) {
            Path kindDir = root.resolve(kind.directory());
            if (!isDirectoryInside(kindDir, realRoot)) {
                continue;
            }
            directories.add(kindDir);
            for (Path claimDir : children(kindDir)) {
                if (!isDirectoryInside(claimDir, realRoot)) {
                    continue;
                }
                directories.add(claimDir);
                for (Path requestDir : children(claimDir)) {
                    if (!isDirectoryInside(requestDir, realRoot)) {
                        continue;
                    }
                    directories.add(requestDir);
                    for (Path file : children(requestDir)) {
                        String fileName = file.getFileName().toString();
                        if (fileName.endsWith(MetadataFileRef.SUFFIX) && isRegularFileInside(file, realRoot)) {
                            String driver = fileName.substring(0, fileName.length() - MetadataFileRef.SUFFIX.length());
                            files.add(new MetadataFileRef(kind, claimDir.getFileName().toString(),
                                    requestDir.getFileName().toString(), driver, fileName, file));
                        }
                    }
                }
            }
        }
        return new Scan(files, directories, true);
    }

    /**
     * Where {@code path} leads now, if that is still inside the root; {@code null} if it leads out. A known
     * file can be swapped for a link (or a directory above it for a linked one) after the walk that found
     * it, so every read goes through this check, not just the walk.
     *
     * @throws java.nio.file.NoSuchFileException when the path no longer leads anywhere
     */
    @Override
    public Path resolveInside(Path path) throws IOException {
        Path real = path.toRealPath();
        return real.startsWith(root.toRealPath()) ? real : null;
    }

    private static List<Path> children(Path dir) {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            stream.forEach(out::add);
        } catch (IOException | RuntimeException e) {
            // Removed while we walked, or unreadable: the next walk sees the tree as it is then.
        }
        return out;
    }

    private static boolean isDirectoryInside(Path path, Path realRoot) {
        return isInside(path, realRoot) && Files.isDirectory(path);
    }

    private static boolean isRegularFileInside(Path path, Path realRoot) {
        return isInside(path, realRoot) && Files.isRegularFile(path);
    }

    /** A symbolic link counts only when its target is inside the root; anything else is as found. */
    private static boolean isInside(Path path, Path realRoot) {
        try {
            BasicFileAttributes attributes =
                    Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isSymbolicLink()) {
                return true;
            }
            return path.toRealPath().startsWith(realRoot);
        } catch (IOException e) {
            return false;
        }
    }
}
