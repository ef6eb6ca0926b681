package dev.dra.sidecar.store.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.store.TestStoreConfig;
import dev.dra.sidecar.store.config.StoreConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The refresh loop's schedule, on a clock the test moves: which net is due when, and when the loop wakes. */
class RefreshScheduleTest {

    private static final StoreConfig CONFIG = TestStoreConfig.of(java.nio.file.Path.of("/nonexistent"));
    private static final RefreshSchedule.Mode NOTIFIED = RefreshSchedule.Mode.of(CONFIG, true, true);
    private static final RefreshSchedule.Mode FILES_ONLY = RefreshSchedule.Mode.of(CONFIG, true, false);
    private static final RefreshSchedule.Mode POLLING = RefreshSchedule.Mode.of(CONFIG, false, false);
    private static final long MS = 1_000_000;
    /** What a poll or walk of a small tree costs: far under any interval's share. */
    private static final long CHEAP = MS / 10;

    @Test
    void theModesTakeTheirIntervalsFromTheSettings() {
        assertTrue(NOTIFIED.walkRidesPoll());
        assertEquals(CONFIG.safetyPollInterval().toNanos(), NOTIFIED.pollIntervalNanos());
        assertEquals(CONFIG.safetyPollInterval().toNanos(), NOTIFIED.walkIntervalNanos());
        assertFalse(FILES_ONLY.walkRidesPoll(), "without directory watches the walk finds new files");
        assertEquals(CONFIG.rescanInterval().toNanos(), FILES_ONLY.walkIntervalNanos());
        assertEquals(CONFIG.pollInterval().toNanos(), POLLING.pollIntervalNanos());
        assertEquals(CONFIG.rescanInterval().toNanos(), POLLING.walkIntervalNanos());
    }

    @Test
    void withWatchesAWalkOutOfTurnLeavesOneWakePerInterval() {
        long interval = NOTIFIED.pollIntervalNanos();
        RefreshSchedule schedule = new RefreshSchedule();
        schedule.pollAt(0);
        List<Long> wakes = new ArrayList<>();
        long now = 0;
        for (int cycle = 0; cycle < 6; cycle++) {
            // A cycle as the loop runs it: the walk, then the poll, then the delay to the next wake from its end.
            boolean walk = schedule.walkDue(now, NOTIFIED);
            boolean poll = schedule.pollDue(now);
            assertEquals(poll, walk, "the walk rides the poll at " + now / MS + " ms");
            if (walk) {
                schedule.walked(now + CHEAP, CHEAP, NOTIFIED);
            }
            if (poll) {
                schedule.polled(now + 2 * CHEAP, CHEAP, NOTIFIED);
            }
            now += 2 * CHEAP;
            if (cycle == 1) {
                // A new directory's event a third of an interval later: a walk out of turn, in a cycle of its own.
                now += interval / 3;
                assertFalse(schedule.walkDue(now, NOTIFIED), "not scheduled then");
                schedule.walked(now + CHEAP, CHEAP, NOTIFIED);
                now += 2 * CHEAP;
            }
            now += schedule.delay(now, NOTIFIED);
            wakes.add(now);
        }
        for (int i = 1; i < wakes.size(); i++) {
            long gap = wakes.get(i) - wakes.get(i - 1);
            assertTrue(gap >= interval, "woke " + Duration.ofNanos(gap).toMillis() + " ms after the last wake, "
                    + "under the interval of " + Duration.ofNanos(interval).toMillis() + " ms: " + wakes);
        }
    }

    @Test
    void polledWithoutWatchesTheWalkAndThePollKeepTheirOwnIntervals() {
        RefreshSchedule schedule = new RefreshSchedule();
        schedule.pollAt(0);
        schedule.walked(0, CHEAP, POLLING);
        schedule.polled(0, CHEAP, POLLING);
        long poll = POLLING.pollIntervalNanos();
        assertEquals(poll, schedule.delay(0, POLLING), "the next poll first");
        assertTrue(schedule.pollDue(poll));
        assertFalse(schedule.walkDue(poll, POLLING), "the walk waits for its own interval");
        assertTrue(schedule.walkDue(POLLING.walkIntervalNanos(), POLLING));
    }

    @Test
    void aPollAskedForOutOfTurnDoesNotMoveTheScheduledOne() {
        RefreshSchedule schedule = new RefreshSchedule();
        schedule.pollAt(0);
        schedule.polled(0, CHEAP, NOTIFIED);
        long interval = NOTIFIED.pollIntervalNanos();
        // The loop calls polled() only for a scheduled poll; one asked for half an interval later leaves it due at
        // the interval, so that the walk riding it cannot be put off by polls asked for more often.
        assertEquals(interval / 2, schedule.delay(interval / 2, NOTIFIED));
        assertTrue(schedule.walkDue(interval, NOTIFIED));
    }

    @Test
    void aCostlyNetIsSpacedByItsCostAndTheLoopSleepsUntilItIsDue() {
        long interval = NOTIFIED.pollIntervalNanos();
        long costly = 3 * interval / NOTIFIED.costFactor();
        RefreshSchedule schedule = new RefreshSchedule();
        schedule.pollAt(0);
        schedule.walked(0, costly, NOTIFIED);
        schedule.polled(0, CHEAP, NOTIFIED);
        assertEquals(3 * interval, schedule.delay(0, NOTIFIED), "the loop sleeps until the spaced nets are due");
        assertFalse(schedule.pollDue(interval), "the walk's cost spaces the poll it rides");
        assertTrue(schedule.pollDue(3 * interval));
        assertTrue(schedule.walkDue(3 * interval, NOTIFIED));

        RefreshSchedule polling = new RefreshSchedule();
        polling.pollAt(0);
        polling.polled(0, 3 * POLLING.pollIntervalNanos() / POLLING.costFactor(), POLLING);
        assertFalse(polling.pollDue(POLLING.pollIntervalNanos()), "a costly poll is spaced by its cost");
        assertTrue(polling.pollDue(3 * POLLING.pollIntervalNanos()));

        RefreshSchedule huge = new RefreshSchedule();
        huge.pollAt(0);
        huge.walked(0, 100 * interval / NOTIFIED.costFactor(), NOTIFIED);
        huge.polled(0, CHEAP, NOTIFIED);
        assertEquals(100 * interval, huge.delay(0, NOTIFIED),
                "nothing but a due net wakes the loop at rest, however far its cost spaced it");
    }
}
