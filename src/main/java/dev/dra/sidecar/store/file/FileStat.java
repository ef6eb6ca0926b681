package dev.dra.sidecar.store.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;

/**
 * One {@code stat} of a path: what the refresh loop compares ({@link Fingerprint}), and the link count, which is
 * 0 only for a bind mount whose file was deleted on the host (a path in a directory always has a link).
 */
record FileStat(Fingerprint fingerprint, int links, boolean symbolicLink) {

    private static final String ATTRIBUTES = "unix:size,lastModifiedTime,fileKey,nlink,isSymbolicLink";

    /** Of the path itself, not following a final symbolic link. */
    static FileStat ofLink(Path path) throws IOException {
        return of(Files.readAttributes(path, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS));
    }

    /** Of what the path leads to. */
    static FileStat of(Path path) throws IOException {
        return of(Files.readAttributes(path, ATTRIBUTES));
    }

    private static FileStat of(Map<String, Object> a) {
        return new FileStat(new Fingerprint((Long) a.get("size"), (FileTime) a.get("lastModifiedTime"), a.get("fileKey")),
                (Integer) a.get("nlink"), (Boolean) a.get("isSymbolicLink"));
    }

    boolean detached() {
        return links == 0;
    }
}
