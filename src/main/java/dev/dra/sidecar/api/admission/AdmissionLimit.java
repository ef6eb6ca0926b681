package dev.dra.sidecar.api.admission;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * At most {@code max} holders at once, and a counter of the refused ones. Thread-safe. Whoever gets a place must
 * {@link #release()} it exactly once, however its work ends.
 */
final class AdmissionLimit {

    private final int max;
    private final AtomicInteger admitted = new AtomicInteger();
    private final Counter refusals;

    /** @param refusalsMetric registered at once, so that it is exposed, at 0, from the start */
    AdmissionLimit(int max, MeterRegistry registry, String refusalsMetric, String description) {
        this.max = max;
        this.refusals = Counter.builder(refusalsMetric).description(description).register(registry);
    }

    /** Takes a place if one is free; otherwise counts the refusal. */
    boolean tryAdmit() {
        if (admitted.incrementAndGet() > max) {
            admitted.decrementAndGet();
            refusals.increment();
            return false;
        }
        return true;
    }

    void release() {
        admitted.decrementAndGet();
    }

    int max() {
        return max;
    }
}
