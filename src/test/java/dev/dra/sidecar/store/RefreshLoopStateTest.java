package dev.dra.sidecar.store;

import static dev.dra.sidecar.snapshot.ClaimKind.CLAIM;
import static dev.dra.sidecar.store.StoreFiles.metadata;
import static dev.dra.sidecar.testsupport.Eventually.awaitTrue;
import static dev.dra.sidecar.testsupport.MetadataFiles.create;
import static dev.dra.sidecar.testsupport.MetadataFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.dra.sidecar.store.refresh.RefreshObserver;
import dev.dra.sidecar.store.watch.WatchMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the liveness check reads of the refresh loop ({@link MetadataStore#busyFor()}): nothing it has to wake the
 * loop for. A loop that waits is not busy; a loop whose thread ended says so, however it ended.
 */
class RefreshLoopStateTest {

    @TempDir
    Path temp;

    @Test
    void aWaitingLoopIsNotBusyAndAClosedOneHasEnded() throws Exception {
        Path root = temp.resolve("root");
        create(file(root, CLAIM, "c", "r", "d"), metadata(1));
        MetadataStore store = new MetadataStore(TestStoreConfig.of(root), RefreshObserver.NONE);
        try {
            store.start();
            // The loop's first cycle puts the watches on; then, with the default settings, it waits for the safety poll.
            awaitTrue(StoreOnFiles.BOUND, "the loop set up its watches", () -> store.status().cycles() >= 2);
            awaitTrue(StoreOnFiles.BOUND, "the loop waits", () -> Duration.ZERO.equals(store.busyFor()));
            assertEquals(WatchMode.INOTIFY, store.status().watchMode());
        } finally {
            store.close();
        }
        assertNull(store.busyFor(), "the loop of a closed store has ended");
    }

    @Test
    void aLoopThatAnErrorEndedHasEnded() {
        Path root = temp.resolve("root");
        create(file(root, CLAIM, "c", "r", "d"), metadata(1));
        AtomicBoolean fail = new AtomicBoolean();
        RefreshObserver failing = new RefreshObserver() {
            @Override
            public void cycleCompleted(long nanos) {
                if (fail.get()) {
                    throw new StackOverflowError("thrown by the test: an error the loop does not catch");
                }
            }
        };
        try (MetadataStore store = new MetadataStore(TestStoreConfig.of(root, "watch", "false"), failing)) {
            store.start();
            awaitTrue(StoreOnFiles.BOUND, "the loop runs", () -> Duration.ZERO.equals(store.busyFor()));
            fail.set(true);
            awaitTrue(StoreOnFiles.BOUND, "the loop has ended", () -> store.busyFor() == null);
        }
    }
}
