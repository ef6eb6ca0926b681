package dev.dra.sidecar.store.source;

import dev.dra.sidecar.decode.FailureCode;
import dev.dra.sidecar.decode.MetadataDecodeException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads a whole file, but never more than the size limit (plus one byte to know it was exceeded). */
public final class BoundedFileReader {

    private final long maxBytes;

    /** A reader of files up to {@code maxBytes} long. */
    public BoundedFileReader(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * The whole file {@code path} leads to.
     *
     * @throws MetadataDecodeException {@code file-too-large} when it is longer than the limit
     */
    public byte[] read(Path path) throws MetadataDecodeException, IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(path)) {
            bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
        }
        if (bytes.length > maxBytes) {
            throw new MetadataDecodeException(FailureCode.FILE_TOO_LARGE, path + ": file is larger than the limit of "
                    + maxBytes + " bytes (dra.metadata.max-file-size); nothing beyond the limit was read");
        }
        return bytes;
    }
}
