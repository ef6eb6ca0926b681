package dev.dra.sidecar.store.refresh;

import dev.dra.sidecar.decode.FailureCode;
import dev.dra.sidecar.snapshot.MetadataSnapshot;

/** What the refresh loop reports as it works, for metrics. Called on the refresh thread; must not block. */
public interface RefreshObserver {

    RefreshObserver NONE = new RefreshObserver() {};

    /** A refresh cycle finished after {@code nanos}. */
    default void cycleCompleted(long nanos) {}

    /**
     * A file was read; {@code failure} is {@code null} when it decoded. A read of a file met while being written,
     * which is read again once it settles and changes nothing readers see, is not reported.
     */
    default void fileRead(FailureCode failure) {}

    /** A new snapshot is being served. */
    default void published(MetadataSnapshot snapshot) {}
}
