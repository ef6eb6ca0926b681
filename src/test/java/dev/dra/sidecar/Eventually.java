package dev.dra.sidecar;

import java.time.Duration;
import java.util.function.Supplier;
import org.opentest4j.AssertionFailedError;

/** Polls a condition until a deadline: changes on disk reach the sidecar within a poll or two, not at once. */
public final class Eventually {

    private Eventually() {}

    /** Returns the first value {@code probe} gives that {@code done} accepts; fails with the last one seen. */
    public static <T> T await(Duration within, Supplier<T> probe, java.util.function.Predicate<T> done, String what) {
        long deadline = System.nanoTime() + within.toNanos();
        T last = probe.get();
        while (!done.test(last)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionFailedError("not reached within " + within + ": " + what + "; last seen: " + last);
            }
            try {
                Thread.sleep(25); // polling interval, not synchronisation: the loop ends on the condition
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionFailedError("interrupted");
            }
            last = probe.get();
        }
        return last;
    }
}
