package dev.dra.sidecar.store.refresh;

import dev.dra.sidecar.store.config.StoreConfig;

/**
 * When the refresh loop's two safety nets are next due: the fingerprint poll of every file and the walk of the tree.
 * Times are {@link System#nanoTime()} values the caller gives.
 *
 * <ul>
 *   <li>Each net is spaced by its interval, or by what it cost times the mode's factor when that is longer: a huge
 *       tree is polled and walked less often, for a bounded share of a core.
 *   <li>Only a scheduled poll sets when the next is due: a poll asked for out of turn is one more. Every walk,
 *       scheduled or asked for, sets when the next is due.
 *   <li>When the walk rides the poll (file and directory watches on: both nets are there only for an event that
 *       never came), the walk is due exactly when the poll is, and the poll waits for the walk's spacing. Whatever
 *       ran out of turn, the loop at rest wakes once per interval.
 *   <li>Nothing else wakes the loop at rest: each wake costs the CPU of bringing its code and data back into the
 *       caches, and more on a virtual machine that reclaims a guest's idle memory.
 * </ul>
 */
final class RefreshSchedule {

    /**
     * A net that costs more CPU than {@code interval / factor} is spaced out to that: polling mode keeps each under
     * about 5 % of a core, notification mode (where both are only a safety net) under about 0.1 %.
     */
    private static final long POLLING_COST_FACTOR = 20;
    private static final long NOTIFIED_COST_FACTOR = 1000;

    /** The spacing of the nets in one mode of watching. */
    record Mode(long pollIntervalNanos, long walkIntervalNanos, long costFactor, boolean walkRidesPoll) {

        /** The mode of {@code config} with file watches on or off and directory watches on or off. */
        static Mode of(StoreConfig config, boolean fileWatches, boolean directoryWatches) {
            boolean rides = fileWatches && directoryWatches;
            return new Mode((fileWatches ? config.safetyPollInterval() : config.pollInterval()).toNanos(),
                    (rides ? config.safetyPollInterval() : config.rescanInterval()).toNanos(),
                    fileWatches ? NOTIFIED_COST_FACTOR : POLLING_COST_FACTOR, rides);
        }
    }

    private long nextPoll;
    private long nextWalk;

    /** Makes the poll due at {@code now}, and with it a walk that rides it: at the start, and when the mode changes. */
    void pollAt(long now) {
        nextPoll = now;
    }

    boolean pollDue(long now) {
        return now - nextPoll >= 0;
    }

    boolean walkDue(long now, Mode mode) {
        return mode.walkRidesPoll() ? pollDue(now) : now - nextWalk >= 0;
    }

    /** A walk, scheduled or asked for, ended at {@code now} having cost {@code cpuNanos}. */
    void walked(long now, long cpuNanos, Mode mode) {
        nextWalk = now + Math.max(mode.walkIntervalNanos(), cpuNanos * mode.costFactor());
    }

    /** A scheduled poll ended at {@code now}; {@code cpuNanos} is what it cost if it read no file, else 0. */
    void polled(long now, long cpuNanos, Mode mode) {
        nextPoll = now + Math.max(mode.pollIntervalNanos(), cpuNanos * mode.costFactor());
        if (mode.walkRidesPoll() && nextWalk - nextPoll > 0) {
            nextPoll = nextWalk;
        }
    }

    /** How long from {@code now} the loop may sleep before a net is due. */
    long delay(long now, Mode mode) {
        long next = mode.walkRidesPoll() ? nextPoll : Math.min(nextPoll, nextWalk);
        return Math.max(0, next - now);
    }
}
