package dev.dra.sidecar.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/** Directory trees for tests: copies of checked-in trees, removal of whole trees, and temporary directories on tmpfs. */
public final class FileTrees {

    private static final Path SHM = Path.of("/dev/shm");

    private FileTrees() {}

    /**
     * A fresh copy of {@code source} (a directory of the project, relative to its base directory) in a new
     * temporary directory whose name starts with {@code prefix}; returns the copy's root.
     */
    public static Path copyToTemporaryDirectory(String source, String prefix) {
        try {
            Path root = Files.createTempDirectory(prefix);
            copyTree(Path.of(source), root);
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Copies the tree {@code from} into {@code to} (created if missing), replacing files that exist there. */
    public static void copyTree(Path from, Path to) {
        try (Stream<Path> tree = Files.walk(from)) {
            for (Path path : (Iterable<Path>) tree::iterator) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Deletes {@code dir} and everything below it, deepest first, without following symbolic links, as the
     * kubelet removes a claim's directory at unprepare. Fails if anything cannot be deleted.
     */
    public static void deleteTree(Path dir) {
        try (Stream<Path> tree = Files.walk(dir)) {
            List<Path> deepestFirst = tree.sorted(Comparator.reverseOrder()).toList();
            for (Path path : deepestFirst) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Makes {@code tree} readable by every user (directories {@code rwxr-xr-x}, files {@code rw-r--r--}), as the
     * kubelet's metadata files are: a container's non-root user can then read a bind mount of it.
     */
    public static void makeReadableByAll(Path tree) {
        try (Stream<Path> paths = Files.walk(tree)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(
                        Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A new temporary directory on tmpfs ({@code /dev/shm}) when there is a writable one, as {@code /var/run} is on
     * a node, else in the default temporary directory. On ext4 a truncate-and-rewrite flushes the replaced blocks
     * at close, so a test that rewrites files fast would measure the disk instead of the sidecar.
     */
    public static Path temporaryDirectoryOnTmpfs(String prefix) {
        try {
            return Files.isDirectory(SHM) && Files.isWritable(SHM) ? Files.createTempDirectory(SHM, prefix)
                    : Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #temporaryDirectoryOnTmpfs} for {@code @TempDir(factory = FileTrees.OnTmpfs.class)}. */
    public static final class OnTmpfs implements TempDirFactory {
        @Override
        public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) {
            return temporaryDirectoryOnTmpfs("dra-test");
        }
    }
}
