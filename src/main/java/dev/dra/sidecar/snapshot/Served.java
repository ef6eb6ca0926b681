package dev.dra.sidecar.snapshot;

import dev.dra.sidecar.decode.FailureCode;

/** What a resource answers: ready bytes, or a coded failure. */
public sealed interface Served permits Served.Available, Served.Unavailable {

    /**
     * A representation ready to write.
     *
     * @param body the encoded JSON
     * @param etag strong ETag of {@code body}, quoted
     * @param sourceVersions the apiVersion(s) decoded, comma-separated in file order; {@code null} for bodies
     *     that are not DeviceMetadata (indexes, attribute values)
     * @param staleReason non-null when the latest read of a settled file failed and its last good object is served instead
     */
    record Available(byte[] body, String etag, String sourceVersions, String staleReason) implements Served {}

    /**
     * @param detail what failed, naming the file
     */
    record Unavailable(FailureCode code, String detail) implements Served {}
}
