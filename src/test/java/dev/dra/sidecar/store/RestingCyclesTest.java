package dev.dra.sidecar.store;

import static dev.dra.sidecar.snapshot.ClaimKind.CLAIM;
import static dev.dra.sidecar.store.StoreFiles.metadata;
import static dev.dra.sidecar.store.StoreOnFiles.BOUND;
import static dev.dra.sidecar.testsupport.Eventually.awaitTrue;
import static dev.dra.sidecar.testsupport.MetadataFiles.create;
import static dev.dra.sidecar.testsupport.MetadataFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * At rest with file notifications on, the refresh loop wakes once per {@code safety-poll-interval}: the walk and
 * the fingerprint poll, the same safety net at the same interval, run in one cycle instead of two a moment apart
 * (each wake of an idle sidecar costs it CPU).
 */
class RestingCyclesTest {

    private static final Duration INTERVAL = Duration.ofSeconds(1);

    @TempDir
    Path root;

    @Test
    void theWalkAndThePollShareOneWakeAtRest() {
        create(file(root, CLAIM, "c", "r", "d"), metadata(1));
        List<Long> cycleEnds = new CopyOnWriteArrayList<>();
        RefreshObserver observer = new RefreshObserver() {
            @Override
            public void cycleCompleted(long nanos) {
                cycleEnds.add(System.nanoTime());
            }
        };
        StoreConfig config = TestStoreConfig.of(root, "watch", "true", "safety-poll-interval", INTERVAL.toMillis() + "ms");
        try (MetadataStore store = StoreOnFiles.start(config, observer)) {
            assertEquals(WatchMode.INOTIFY, store.status().watchMode());
            // The start's cycles (the first walk, the one its new directory watches ask for) are done within one
            // interval; what follows is the store at rest.
            int started = cycleEnds.size();
            awaitTrue(BOUND, "six cycles at rest", () -> cycleEnds.size() >= started + 6);
            List<Long> gaps = new ArrayList<>();
            for (int i = started + 2; i < started + 6; i++) {
                gaps.add(Duration.ofNanos(cycleEnds.get(i) - cycleEnds.get(i - 1)).toMillis());
            }
            assertTrue(gaps.stream().allMatch(gap -> gap >= INTERVAL.toMillis() / 2),
                    "cycles at rest came closer than half the safety-poll interval apart (ms): " + gaps);
        }
    }
}
