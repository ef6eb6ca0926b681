package dev.dra.sidecar.store;

import static dev.dra.sidecar.snapshot.ClaimKind.CLAIM;
import static dev.dra.sidecar.store.StoreFiles.generation;
import static dev.dra.sidecar.store.StoreFiles.metadata;
import static dev.dra.sidecar.testsupport.Eventually.awaitTrue;
import static dev.dra.sidecar.testsupport.MetadataFiles.create;
import static dev.dra.sidecar.testsupport.MetadataFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.decode.FailureCode;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.store.config.StoreConfig;
import dev.dra.sidecar.store.refresh.RefreshObserver;
import dev.dra.sidecar.testsupport.MetadataFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A new snapshot means new content: re-reads that decode to the same objects publish nothing. */
class MetadataStorePublishTest {

    /** How long nothing may be published after the store went quiet. */
    private static final Duration QUIET = Duration.ofMillis(500);

    @RegisterExtension
    final StoreErrorLog errorLog = new StoreErrorLog();

    @TempDir
    Path temp;

    private final AtomicLong reads = new AtomicLong();

    private final RefreshObserver counting = new RefreshObserver() {
        @Override
        public void fileRead(FailureCode failure) {
            reads.incrementAndGet();
        }
    };

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void touchingOrRewritingTheSameContentPublishesNothing(boolean watch) throws IOException {
        Path root = temp.resolve("root");
        Path f = file(root, CLAIM, "c", "r", "d");
        create(f, metadata(1));
        try (MetadataStore store = new MetadataStore(quiescible(root, watch), counting)) {
            store.start();
            awaitQuiescence(store);
            long sequence = store.current().sequence();

            long before = reads.get();
            Files.setLastModifiedTime(f, FileTime.from(Instant.now()));
            awaitTrue(StoreOnFiles.BOUND, "the touched file is read again", () -> reads.get() > before);
            awaitQuiescence(store);
            assertNothingPublishedFor(store, sequence);

            // Same bytes, written the way a driver rewrites (truncate, write): re-read, nothing new.
            long before2 = reads.get();
            MetadataFiles.rewriteInPlace(f, metadata(1));
            awaitTrue(StoreOnFiles.BOUND, "the rewritten file is read again", () -> reads.get() > before2);
            // Other formatting, same decoded object (compact, no trailing newline).
            MetadataFiles.rewriteInPlace(f, StoreFiles.JSON.writeValueAsBytes(StoreFiles.JSON.readTree(metadata(1))));
            awaitQuiescence(store);
            assertNothingPublishedFor(store, sequence);
            assertEquals(1L, generation(store.current(), CLAIM, "c", "r", "d"));
        }
    }

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void changeAfterCompletesOnARealChangeAndAtOnceForAnOlderSequence(boolean watch) throws Exception {
        Path root = temp.resolve("root");
        Path f = file(root, CLAIM, "c", "r", "d");
        create(f, metadata(1));
        try (MetadataStore store = new MetadataStore(quiescible(root, watch), counting)) {
            store.start();
            awaitQuiescence(store);
            MetadataSnapshot first = store.current();
            CompletableFuture<MetadataSnapshot> change = StoreChanges.after(store, first.sequence());
            assertFalse(change.isDone(), "nothing changed yet");

            MetadataFiles.rewriteInPlace(f, metadata(2));
            MetadataSnapshot next = change.get(5, TimeUnit.SECONDS);
            assertTrue(next.sequence() > first.sequence());
            assertEquals(2L, generation(next, CLAIM, "c", "r", "d"), "the change it completed for");

            // Asking with a sequence older than the current snapshot answers at once with the current one.
            CompletableFuture<MetadataSnapshot> late = StoreChanges.after(store, first.sequence());
            assertTrue(late.isDone());
            assertSame(store.current(), late.get());
            assertEquals(1L, generation(first, CLAIM, "c", "r", "d"), "an old snapshot keeps what it had");
        }
    }

    /**
     * The default settings but a safety poll every 100 ms: a change no event reports is still found within the
     * tests' deadlines.
     */
    private static StoreConfig quiescible(Path root, boolean watch) {
        return TestStoreConfig.of(root, "watch", String.valueOf(watch), "safety-poll-interval", "100ms");
    }

    /**
     * Waits until a refresh (a walk and a look at every file, reading each whose fingerprint changed or whose re-read
     * is pending, such as one modified within the settle window) reads nothing: whatever a change asked for is done,
     * the store is idle.
     */
    private void awaitQuiescence(MetadataStore store) {
        awaitTrue(StoreOnFiles.BOUND, "a refresh that reads no file", () -> {
            long readsBefore = reads.get();
            store.refreshNow().join();
            return reads.get() == readsBefore;
        });
    }

    private static void assertNothingPublishedFor(MetadataStore store, long sequence) {
        long end = System.nanoTime() + QUIET.toNanos();
        while (System.nanoTime() - end < 0) {
            assertEquals(sequence, store.current().sequence(), "a snapshot was published without a content change");
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
