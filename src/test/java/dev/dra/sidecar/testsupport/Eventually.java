package dev.dra.sidecar.testsupport;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.opentest4j.AssertionFailedError;

/**
 * Polls a condition until a deadline: changes on disk reach the sidecar within a poll or two, not at once. The
 * condition is checked at once, then every {@link #POLL_INTERVAL}, and once more at the deadline; the sleeps
 * between checks are a polling interval, never synchronisation: every method ends on the condition or the deadline.
 */
public final class Eventually {

    /** Time between two checks of a condition; also the resolution of {@link #awaitTrue}'s measured duration. */
    public static final Duration POLL_INTERVAL = Duration.ofMillis(10);

    private Eventually() {}

    /**
     * Returns the first value {@code probe} gives that {@code done} accepts; fails with an assertion error naming
     * {@code what} and the last value seen when none does within {@code within}.
     */
    public static <T> T await(Duration within, Supplier<T> probe, Predicate<T> done, String what) {
        long deadline = System.nanoTime() + within.toNanos();
        T last = probe.get();
        while (!done.test(last)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionFailedError("not reached within " + within + ": " + what + "; last seen: " + last);
            }
            pause(POLL_INTERVAL);
            last = probe.get();
        }
        return last;
    }

    /**
     * Waits until {@code condition} holds and returns how long that took (from the call, to within one poll);
     * fails with an assertion error naming {@code what} when it does not hold within {@code within}.
     */
    public static Duration awaitTrue(Duration within, String what, BooleanSupplier condition) {
        return awaitTrue(within, () -> what, condition);
    }

    /** {@link #awaitTrue(Duration, String, BooleanSupplier)} that describes the wait only when it fails. */
    public static Duration awaitTrue(Duration within, Supplier<String> what, BooleanSupplier condition) {
        long start = System.nanoTime();
        if (!becomesTrue(within, condition)) {
            throw new AssertionFailedError("not within " + within.toMillis() + " ms: " + what.get());
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * Whether {@code condition} holds at some check within {@code within}; never fails, for callers that count
     * misses rather than stop at the first.
     */
    public static boolean becomesTrue(Duration within, BooleanSupplier condition) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return condition.getAsBoolean();
            }
            pause(POLL_INTERVAL);
        }
        return true;
    }

    /**
     * Sleeps for {@code duration}: only to give something time to happen whose outcome the test then checks and
     * does not depend on (for example, long polls reaching the server before a change). Restores the interrupt
     * flag and fails when interrupted.
     */
    public static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionFailedError("interrupted", e);
        }
    }
}
