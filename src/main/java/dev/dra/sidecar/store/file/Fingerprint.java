package dev.dra.sidecar.store.file;

import java.nio.file.attribute.FileTime;

/**
 * What a look compares to decide whether a file must be read again. An in-place rewrite changes size or
 * modification time; a replacement by rename changes the file key (device and inode).
 */
record Fingerprint(long size, FileTime modified, Object fileKey) {}
