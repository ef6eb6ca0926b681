package dev.dra.sidecar.store;

import dev.dra.sidecar.decode.DecodedMetadata;
import dev.dra.sidecar.decode.MetadataDecodeException;

/**
 * The refresh loop's memory of one file. Owned and mutated by the refresh thread only; what readers see is
 * copied into the immutable snapshot.
 */
final class TrackedFile {

    final MetadataFileRef ref;

    /** Taken just before the last read, so a write racing that read is noticed by the next poll. */
    Fingerprint fingerprint;

    /** The file was modified so recently before the last read that a write within the same timestamp tick could hide. */
    boolean unsettled;

    /** The last object that decoded; kept and served (stale) while later reads fail. */
    DecodedMetadata good;

    /** The latest read's failure, {@code null} when it decoded. */
    MetadataDecodeException failure;

    long retryAtNanos;
    long backoffNanos;

    TrackedFile(MetadataFileRef ref) {
        this.ref = ref;
    }

    /** Whether a read has decoded or failed yet; a file only just found by a walk has neither. */
    boolean wasRead() {
        return good != null || failure != null;
    }

    boolean isStale() {
        return good != null && failure != null;
    }

    /** What readers would see of this file; equal states publish nothing new. */
    Object servedState() {
        return new ServedState(good == null ? null : good.object(), good == null ? null : good.sourceVersion(),
                failure == null ? null : failure.code(), failure == null ? null : failure.getMessage());
    }

    private record ServedState(Object object, String version, Object code, String message) {}
}
