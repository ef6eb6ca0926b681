package dev.dra.sidecar.store.source;

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
        return "Metadata root " + root + " does not exist: no metadata file is mounted into this container. Either it "
                + "lists no claim in its own resources.claims (kubelet mounts only the claims a container lists), or the "
                + "drivers of the claims it lists write no metadata file (most drivers write none by default).";
    }

    @Override
    public Scan scan(Admission admission) {
        if (!Files.isDirectory(root)) {
            return Scan.missing();
        }
        Path realRoot;
        try {
            realRoot = root.toRealPath();
        } catch (IOException e) {
            return Scan.missing();
        }
        Walk walk = new Walk(admission, realRoot);
        walk.directories.add(root);
        for (ClaimKind kind : ClaimKind.values()) {
            Path kindDir = root.resolve(kind.directory());
            if (isDirectoryInside(kindDir, realRoot)) {
                walk.directories.add(kindDir);
                for (Path claimDir : children(kindDir)) {
                    walk.claim(kind, claimDir);
                }
            }
        }
        return new Scan(walk.files, walk.refused, walk.directories, true);
    }

    /**
     * One walk's findings: admitted files, the count of refused ones, and the directories worth watching: each that
     * holds an admitted file, and each walked before the first refusal.
     */
    private static final class Walk {
        private final Admission admission;
        private final Path realRoot;
        private final List<MetadataFileRef> files = new ArrayList<>();
        private final List<Path> directories = new ArrayList<>();
        private int refused;

        Walk(Admission admission, Path realRoot) {
            this.admission = admission;
            this.realRoot = realRoot;
        }

        void claim(ClaimKind kind, Path claimDir) {
            if (!isDirectoryInside(claimDir, realRoot)) {
                return;
            }
            int filesBefore = files.size();
            int listed = directories.size();
            directories.add(claimDir);
            for (Path requestDir : children(claimDir)) {
                request(kind, claimDir, requestDir);
            }
            if (refused > 0 && files.size() == filesBefore) {
                directories.subList(listed, directories.size()).clear();
            }
        }

        private void request(ClaimKind kind, Path claimDir, Path requestDir) {
            if (!isDirectoryInside(requestDir, realRoot)) {
                return;
            }
            int filesBefore = files.size();
            for (Path file : children(requestDir)) {
                String fileName = file.getFileName().toString();
                if (fileName.endsWith(MetadataFileRef.SUFFIX) && isRegularFileInside(file, realRoot)) {
                    if (admission.admit(file)) {
                        String driver = fileName.substring(0, fileName.length() - MetadataFileRef.SUFFIX.length());
                        files.add(new MetadataFileRef(kind, claimDir.getFileName().toString(),
                                requestDir.getFileName().toString(), driver, fileName, file));
                    } else {
                        refused++;
                    }
                }
            }
            if (refused == 0 || files.size() > filesBefore) {
                directories.add(requestDir);
            }
        }
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
