package dev.dra.sidecar.store;

import dev.dra.sidecar.snapshot.DerivedClaims;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.NodeClaims;
import dev.dra.sidecar.store.config.StoreConfig;
import dev.dra.sidecar.store.file.HeldBudget;
import dev.dra.sidecar.store.refresh.RefreshLoop;
import dev.dra.sidecar.store.refresh.RefreshObserver;
import dev.dra.sidecar.store.refresh.StoreStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What readers use of the store: the immutable, always-consistent snapshot of every metadata file under the root,
 * a wait for the next one, and what the store is doing. Its {@link RefreshLoop} keeps the snapshot current on a thread
 * of its own; no method here blocks that thread or waits for it, except {@link #start()} and {@link #close()}.
 *
 * <p>Torn reads never reach a reader; readers see stale only when a settled file fails. Then the last good object
 * stays served, marked stale with the reason, and the file is retried with a doubling backoff until a good read
 * replaces it. A file whose path leads to a deleted file (a bind mount of a file the host replaced by rename) keeps
 * serving its last object, marked detached.
 */
public final class MetadataStore implements AutoCloseable {

    private final ChangeWaiters waiters = new ChangeWaiters();
    private final RefreshLoop loop;
    private volatile Supplier<CompletableFuture<?>> derivation = () -> CompletableFuture.completedFuture(null);

    /** The store of the files {@link StoreConfig#mode()} finds: the container's own tree, or the node's CDI specs. */
    public MetadataStore(StoreConfig config, RefreshObserver observer) {
        this.loop = new RefreshLoop(config, observer, waiters::publish);
    }

    /**
     * Runs the first full scan on the calling thread, so that the first snapshot is complete, then starts refreshing.
     * File notifications are set up by the refresh thread right after (loading the native library takes a while,
     * and need not delay the start): until then, and if they cannot be had, files are polled.
     */
    public void start() {
        loop.start();
    }

    /** The snapshot being served now (in node mode without claims: {@link #nodeClaims()} has them). Never blocks. */
    public MetadataSnapshot current() {
        return loop.current();
    }

    /** Node mode: every claim's files apart, at least as new as {@link #current()}; empty in sidecar mode. */
    public NodeClaims nodeClaims() {
        return loop.nodeClaims();
    }

    /**
     * Brings the derived metadata up to date ({@link #deriveWith}), then walks the source and looks at every file;
     * completes with the snapshot published by the end of it.
     */
    public CompletableFuture<MetadataSnapshot> refreshNow() {
        return derivation.get().thenCompose(derived -> loop.refreshNow());
    }

    /**
     * Makes {@link #refreshNow()} first ask {@code derivation} to bring what it derives up to date (and hand it over
     * through {@link #derived}); its future completes when it has, within a bound of its own.
     */
    public void deriveWith(Supplier<CompletableFuture<?>> derivation) {
        this.derivation = derivation;
    }

    /**
     * Serves {@code derived} from now on beside the files: for each (claim, request, driver) without a file, the object
     * the resource API gives; a file always wins. Completes with the snapshot that serves it; walks and reads nothing.
     */
    public CompletableFuture<MetadataSnapshot> derived(DerivedClaims derived) {
        return loop.derived(derived);
    }

    /**
     * Calls {@code callback} once with the first snapshot whose sequence is above {@code sequence}: at once if
     * there is one already, else when the next one is published (on the refresh thread: do not block in it).
     * Holds no thread while waiting.
     *
     * @return cancels the wait
     */
    public Runnable awaitChange(long sequence, Consumer<MetadataSnapshot> callback) {
        return waiters.await(sequence, this::current, callback);
    }

    /**
     * Answers every waiting caller now with the current snapshot, and every later one at once: called when the
     * application stops, so long polls end with a normal answer instead of a reset, and nothing holds the
     * shutdown. Refreshing goes on until {@link #close()}.
     */
    public void answerWaitersNow() {
        waiters.drain(current());
    }

    /** Whether {@link #answerWaitersNow()} was called: a caller must not start waiting again. */
    public boolean draining() {
        return waiters.draining();
    }

    /** Callers waiting for a change, for metrics. */
    public int waiting() {
        return waiters.size();
    }

    /** What the store is doing now, for health checks and metrics. */
    public StoreStatus status() {
        return loop.status();
    }

    /**
     * How long the refresh loop has been in the cycle under way: zero while it waits for the next, {@code null} once
     * its thread has ended (an error escaped the loop, or the store was closed). Waiting costs nothing: at rest the
     * loop wakes only when a safety net is due.
     */
    public Duration busyFor() {
        return loop.busyFor();
    }

    /** What the store holds against its memory bound. */
    public HeldBudget.View held() {
        return loop.held();
    }

    /** What the store reads: the metadata root, or in node mode the CDI spec directory. */
    public Path root() {
        return loop.root();
    }

    /** Stops refreshing and the watches; the snapshot served last stays served. */
    @Override
    public void close() {
        loop.close();
    }
}
