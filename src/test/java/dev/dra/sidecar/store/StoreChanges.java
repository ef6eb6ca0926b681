package dev.dra.sidecar.store;

import dev.dra.sidecar.snapshot.MetadataSnapshot;
import java.util.concurrent.CompletableFuture;

/** {@link MetadataStore#awaitChange} as a future, for tests that wait for a snapshot. */
public final class StoreChanges {

    private StoreChanges() {}

    /** Completes with the first snapshot above {@code sequence}; cancelling it cancels the wait. */
    public static CompletableFuture<MetadataSnapshot> after(MetadataStore store, long sequence) {
        CompletableFuture<MetadataSnapshot> future = new CompletableFuture<>();
        Runnable cancel = store.awaitChange(sequence, future::complete);
        future.whenComplete((s, e) -> cancel.run());
        return future;
    }
}
