package dev.dra.sidecar.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.store.MetadataStore;
import dev.dra.sidecar.store.StoreChanges;
import dev.dra.sidecar.store.TestStoreConfig;
import dev.dra.sidecar.store.refresh.RefreshObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The store-level half of graceful shutdown: waiting callers are answered with what is served now. */
class ShutdownAnswersWaitersTest {

    @Test
    void waitersGetTheCurrentSnapshotAndLaterWaitsEndAtOnce() throws Exception {
        try (MetadataStore store = new MetadataStore(TestStoreConfig.of(OpsTestTree.copyOfSample()),
                RefreshObserver.NONE)) {
            store.start();
            MetadataSnapshot current = store.current();
            CompletableFuture<MetadataSnapshot> first = StoreChanges.after(store, current.sequence());
            CompletableFuture<MetadataSnapshot> second = StoreChanges.after(store, current.sequence());
            assertEquals(2, store.waiting());
            assertFalse(first.isDone(), "nothing changed on disk: the wait goes on");
            assertFalse(store.draining());

            store.answerWaitersNow();

            assertTrue(store.draining());
            assertEquals(current, first.get(1, TimeUnit.SECONDS));
            assertEquals(current, second.get(1, TimeUnit.SECONDS));
            assertEquals(0, store.waiting());
            // A long poll arriving while the application stops must not wait either.
            assertEquals(current, StoreChanges.after(store, current.sequence()).get(1, TimeUnit.SECONDS));
            assertEquals(0, store.waiting());
        }
    }
}
