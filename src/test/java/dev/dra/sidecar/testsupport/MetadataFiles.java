package dev.dra.sidecar.testsupport;

import dev.dra.sidecar.snapshot.ClaimKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Metadata files where the kubelet puts them and written the three ways a file changes under the sidecar: created
 * at prepare, rewritten in place ({@code os.WriteFile}: what a read-only single-file bind mount shows), or replaced
 * by a rename (a new inode; only seen where the directory itself is shared). I/O errors surface as
 * {@link UncheckedIOException}.
 */
public final class MetadataFiles {

    private MetadataFiles() {}

    /** {@code <root>/<resourceclaims|resourceclaimtemplates>/<claim>/<request>/<driver>-metadata.json}. */
    public static Path file(Path root, ClaimKind kind, String claim, String request, String driver) {
        return root.resolve(kind.directory()).resolve(claim).resolve(request).resolve(driver + "-metadata.json");
    }

    /** Creates (or overwrites) {@code file} and its missing directories with {@code content}, as at prepare. */
    public static Path create(Path file, byte[] content) {
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, content);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #create(Path, byte[])} with {@code content} in UTF-8. */
    public static Path create(Path file, String content) {
        return create(file, content.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * {@code os.WriteFile} over an existing file: truncate, then write, same inode. A reader may see the file
     * empty or half-written in between, as in a pod.
     */
    public static void rewriteInPlace(Path file, byte[] content) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(content);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes a hidden temporary file next to {@code file} and renames it over {@code file} atomically (creating
     * missing directories): a reader sees the old or the new content, never a part, under a new inode.
     */
    public static void replaceByRename(Path file, byte[] content) {
        try {
            Files.createDirectories(file.getParent());
            Path temp = file.resolveSibling("." + file.getFileName() + ".tmp");
            Files.write(temp, content);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #replaceByRename(Path, byte[])} with {@code content} in UTF-8. */
    public static void replaceByRename(Path file, String content) {
        replaceByRename(file, content.getBytes(StandardCharsets.UTF_8));
    }
}
