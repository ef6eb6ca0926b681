package dev.dra.sidecar.store.refresh;

import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.store.config.StoreLog;
import dev.dra.sidecar.store.file.TrackedFile;
import dev.dra.sidecar.store.watch.DirectoryWatcher;
import dev.dra.sidecar.store.watch.FileWatcher;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * What the watcher threads ask of the refresh thread: a walk of the tree, a poll of every file, a look at one file
 * (an inotify event), or everything again (events were lost). Each request wakes the refresh thread; none is lost,
 * and several that arrive before it wakes are served by one cycle. Safe from any thread; the {@code take} methods
 * are for the refresh thread.
 */
final class RefreshRequests {

    private static final Logger LOG = Logger.getLogger(StoreLog.CATEGORY);

    record FileEvent(Path path, FileWatcher.Event event) {}

    private final Semaphore wake = new Semaphore(0);
    private final AtomicBoolean rescan = new AtomicBoolean(true);
    private final AtomicBoolean poll = new AtomicBoolean();
    private final AtomicBoolean overflowed = new AtomicBoolean();
    private final ConcurrentLinkedQueue<FileEvent> events = new ConcurrentLinkedQueue<>();
    private final List<CompletableFuture<MetadataSnapshot>> refreshes = new ArrayList<>();

    /**
     * What the directory watcher reports: a new or removed entry asks for a walk, and so does a changed file of a
     * directory whose files the walk reads ({@code walkReads}); another changed file asks for a poll unless
     * {@code fileWatchesOn} (then the file's own event says more).
     */
    DirectoryWatcher.Listener directoryListener(BooleanSupplier fileWatchesOn, Predicate<Path> walkReads) {
        return new DirectoryWatcher.Listener() {
            @Override
            public void contentChanged(Path directory) {
                if (walkReads.test(directory)) {
                    treeChanged();
                } else if (!fileWatchesOn.getAsBoolean()) {
                    poll.set(true);
                    wake.release();
                }
            }

            @Override
            public void treeChanged() {
                requestRescan();
                wake.release();
            }
        };
    }

    /** What the per-file watches report: an event of one file, or that events were lost. */
    FileWatcher.Listener fileListener() {
        return new FileWatcher.Listener() {
            @Override
            public void fileEvent(Path path, FileWatcher.Event event) {
                events.add(new FileEvent(path, event));
                wake.release();
            }

            @Override
            public void overflow() {
                overflowed.set(true);
                wake.release();
            }
        };
    }

    /** Asks for a walk at the next cycle, without waking the refresh thread (it is the caller). */
    void requestRescan() {
        rescan.set(true);
    }

    boolean rescanRequested() {
        return rescan.get();
    }

    /**
     * Waits up to {@code nanos} for a request; true when one came (all that came by then are taken by the next
     * cycle).
     */
    boolean await(long nanos) throws InterruptedException {
        if (wake.tryAcquire(nanos, TimeUnit.NANOSECONDS)) {
            wake.drainPermits();
            return true;
        }
        return false;
    }

    /** A walk and a poll of every file at the next cycle; completes once that cycle ended. Safe from any thread. */
    CompletableFuture<MetadataSnapshot> requestRefresh() {
        CompletableFuture<MetadataSnapshot> refreshed = new CompletableFuture<>();
        synchronized (refreshes) {
            refreshes.add(refreshed);
            rescan.set(true);
            poll.set(true);
        }
        wake.release();
        return refreshed;
    }

    /** A cycle soon that walks and reads nothing unless due anyway; completes once that cycle ended. Safe from any thread. */
    CompletableFuture<MetadataSnapshot> requestCycle() {
        CompletableFuture<MetadataSnapshot> cycled = new CompletableFuture<>();
        synchronized (refreshes) {
            refreshes.add(cycled);
        }
        wake.release();
        return cycled;
    }

    /**
     * The refreshes and cycles the cycle starting now serves: it walks and polls where a refresh set their flags, then
     * completes them.
     */
    List<CompletableFuture<MetadataSnapshot>> takeRefreshes() {
        synchronized (refreshes) {
            if (refreshes.isEmpty()) {
                return List.of();
            }
            List<CompletableFuture<MetadataSnapshot>> taken = List.copyOf(refreshes);
            refreshes.clear();
            return taken;
        }
    }

    boolean takeRescan() {
        return rescan.getAndSet(false);
    }

    boolean takePoll() {
        return poll.getAndSet(false);
    }

    /**
     * Turns the file events received since the last take into due looks at the {@code files} they name, a write left
     * open {@code settleNanos} after {@code now}; after lost events, asks for a walk and a look at every file.
     */
    void takeEvents(Map<Path, TrackedFile> files, long now, long settleNanos) {
        if (overflowed.getAndSet(false)) {
            LOG.infof("File events were lost (inotify queue overflow): reading every file again");
            rescan.set(true);
            for (TrackedFile file : files.values()) {
                file.checkAt(now, true);
            }
        }
        for (FileEvent event; (event = events.poll()) != null; ) {
            TrackedFile file = files.get(event.path());
            if (file == null) {
                continue;
            }
            switch (event.event()) {
                case WRITTEN -> file.checkAt(now, true);
                case MODIFIED -> file.checkAt(now + settleNanos, true);
                // Attributes: a chmod changes neither size nor time, but whether the file can be read.
                case CHANGED -> file.checkAt(now, true);
            }
        }
    }
}
