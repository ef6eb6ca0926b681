package dev.dra.sidecar.store;

import dev.dra.sidecar.snapshot.MetadataSnapshot;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Callbacks waiting for the next snapshot. A waiter is an object in a set, not a thread: a thousand long
 * polls cost a thousand small objects. A waiter that gives up removes itself, so nothing accumulates while
 * no snapshot is published.
 */
final class ChangeWaiters {

    private final Set<Waiter> waiters = ConcurrentHashMap.newKeySet();

    /** Set once the application stops: no wait may outlive it. */
    private volatile boolean draining;

    /**
     * Calls {@code callback} once with the first snapshot whose sequence is above {@code sequence}: at once
     * (on this thread) if {@code current} already has one, else on the publishing thread.
     *
     * @return cancels the wait; harmless after the callback ran
     */
    Runnable await(long sequence, Supplier<MetadataSnapshot> current, Consumer<MetadataSnapshot> callback) {
        Waiter waiter = new Waiter(callback);
        waiters.add(waiter);
        // A snapshot published between the caller's read and add() would otherwise be missed.
        // draining is read after add(): either drain() sees this waiter or this sees the flag.
        MetadataSnapshot now = current.get();
        if (now.sequence() > sequence || draining) {
            waiters.remove(waiter);
            waiter.fire(now);
        }
        return () -> waiters.remove(waiter);
    }

    /** Fires every waiter with {@code published}, which must already be what {@code current} returns. */
    void publish(MetadataSnapshot published) {
        for (Waiter waiter : waiters) {
            if (waiters.remove(waiter)) {
                waiter.fire(published);
            }
        }
    }

    /**
     * Fires every waiter with {@code current} and, from now on, every new waiter at once: the stopping
     * application answers its long polls with what it serves instead of letting the connections be reset.
     */
    void drain(MetadataSnapshot current) {
        draining = true;
        publish(current);
    }

    boolean draining() {
        return draining;
    }

    int size() {
        return waiters.size();
    }

    private static final class Waiter {
        private final Consumer<MetadataSnapshot> callback;
        private final AtomicBoolean fired = new AtomicBoolean();

        Waiter(Consumer<MetadataSnapshot> callback) {
            this.callback = callback;
        }

        void fire(MetadataSnapshot snapshot) {
            if (fired.compareAndSet(false, true)) {
                callback.accept(snapshot);
            }
        }
    }
}
