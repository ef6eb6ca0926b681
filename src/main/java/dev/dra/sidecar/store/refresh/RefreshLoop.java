package dev.dra.sidecar.store.refresh;

import dev.dra.sidecar.snapshot.DerivedClaims;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.NodeClaims;
import dev.dra.sidecar.store.assembly.ClaimScopes;
import dev.dra.sidecar.store.assembly.DriverInput;
import dev.dra.sidecar.store.assembly.SnapshotBuilder;
import dev.dra.sidecar.store.assembly.SourceMerge;
import dev.dra.sidecar.store.config.StoreConfig;
import dev.dra.sidecar.store.config.StoreLog;
import dev.dra.sidecar.store.file.FileLook;
import dev.dra.sidecar.store.file.HeldBudget;
import dev.dra.sidecar.store.file.TrackedFile;
import dev.dra.sidecar.store.source.FileSource;
import dev.dra.sidecar.store.source.FileSourceFactory;
import dev.dra.sidecar.store.source.MetadataFileRef;
import dev.dra.sidecar.store.watch.WatchMode;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Keeps an immutable, always-consistent snapshot of every metadata file its source finds, on a thread of its own.
 *
 * <p>One refresh thread does all file work and only schedules; each {@link TrackedFile} owns its state. The thread
 * walks the tree (at start, on directory events, when a file vanished, and at every fingerprint poll while file
 * notifications are on, every {@link StoreConfig#rescanInterval()} when they are not) and looks at a
 * file when it is due: at once after an inotify event says it was closed after writing or its attributes
 * changed, a short settle after a write that left it open, after a retry backoff, and at every fingerprint poll
 * (every {@link StoreConfig#safetyPollInterval()} while file notifications are on, every
 * {@link StoreConfig#pollInterval()} when they are not). A look compares the fingerprint and reads the file
 * only when it changed or an event said it was written, and publishes a new snapshot only when what readers
 * would see changed, no torn read among it ({@link FileLook}). Readers call {@link #current()} and never block that
 * thread.
 */
public final class RefreshLoop implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(StoreLog.CATEGORY);

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** Directory events come in bursts: a walk they ask for waits this long for the rest of the burst. */
    private static final long DIRECTORY_EVENT_SPACING_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private final StoreConfig config;
    private final FileSource source;
    private final SourcePresence presence = new SourcePresence();
    private final FileLook look;
    private final RefreshObserver observer;
    private final HeldBudget budget;
    private final RefreshRequests requests = new RefreshRequests();
    private final Watching watching;
    private final Map<Path, TrackedFile> files = new LinkedHashMap<>();

    private final Consumer<MetadataSnapshot> onPublished;

    private volatile MetadataSnapshot snapshot;
    private volatile NodeClaims nodeClaims = NodeClaims.NONE;
    /** What the resource API derives, as last handed over; read at each cycle. */
    private volatile DerivedClaims derived = DerivedClaims.NONE;
    /** {@link #derived} as the last snapshot published serves it; refresh thread only. */
    private DerivedClaims publishedDerived = DerivedClaims.NONE;
    private volatile StoreStatus status;
    private volatile boolean running;
    /** {@link System#nanoTime()} when the cycle under way started; meaningful while {@link #inCycle}. */
    private volatile long cycleStartedNanos;
    private volatile boolean inCycle;
    /** Set by {@link #start()}; read by {@link #busyFor()} on any thread. */
    private volatile Thread thread;
    private long sequence;
    private final RefreshSchedule schedule = new RefreshSchedule();

    /**
     * The loop over the files {@link StoreConfig#mode()} finds: the container's own tree, or the node's CDI specs.
     *
     * @param onPublished called on the refresh thread with each new snapshot, once {@link #current()} returns it and
     *     before {@code observer} hears of it; must not block
     */
    public RefreshLoop(StoreConfig config, RefreshObserver observer, Consumer<MetadataSnapshot> onPublished) {
        this.config = config;
        this.source = FileSourceFactory.of(config);
        this.budget = new HeldBudget(config);
        this.look = new FileLook(config, source, observer::fileRead, budget);
        this.observer = observer;
        this.watching = new Watching(config);
        this.onPublished = onPublished;
        this.snapshot = SnapshotBuilder.build(0, List.of());
        this.status = new StoreStatus(false, WatchMode.POLLING, "not started", 0, 0, System.nanoTime(), 0);
    }

    /**
     * Runs the first full scan on the calling thread, so that the first snapshot is complete, then starts refreshing.
     * File notifications are set up by the refresh thread right after (loading the native library takes a while,
     * and need not delay the start): until then, and if they cannot be had, files are polled.
     */
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        watching.starting();
        cycle(true);
        thread = new Thread(this::loop, "dra-metadata-refresh");
        thread.setDaemon(true);
        thread.start();
    }

    /** The snapshot being served now (in node mode without claims: {@link #nodeClaims()} has them). Never blocks. */
    public MetadataSnapshot current() {
        return snapshot;
    }

    /** Node mode: every claim's files apart, at least as new as {@link #current()}; empty in sidecar mode. */
    public NodeClaims nodeClaims() {
        return nodeClaims;
    }

    /** Walks the source and looks at every file now; completes with the snapshot published by the end of it. */
    public CompletableFuture<MetadataSnapshot> refreshNow() {
        return requests.requestRefresh();
    }

    /**
     * Serves {@code next} from now on beside the files, a file winning over what it derives for the same (claim,
     * request, driver); completes with the snapshot that serves it. Walks and reads nothing.
     */
    public CompletableFuture<MetadataSnapshot> derived(DerivedClaims next) {
        derived = next;
        return requests.requestCycle();
    }

    /** What the loop is doing now. */
    public StoreStatus status() {
        return status;
    }

    /**
     * How long the refresh loop has been in the cycle under way: zero while it waits for the next, {@code null} once
     * its thread has ended (an error escaped the loop, or it was closed). Waiting costs nothing: at rest the
     * loop wakes only when a safety net is due.
     */
    public Duration busyFor() {
        if (thread != null && !thread.isAlive()) {
            return null;
        }
        return inCycle ? Duration.ofNanos(System.nanoTime() - cycleStartedNanos) : Duration.ZERO;
    }

    /** What the store holds against its memory bound. */
    public HeldBudget.View held() {
        return budget.view();
    }

    /** What the source reads: the metadata root, or the CDI spec directory. */
    public Path root() {
        return source.root();
    }

    /** Ends the thread (waiting for it a while) and the watches; what was published last stays current. */
    @Override
    public synchronized void close() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        watching.close();
    }

    private void loop() {
        if (config.watch()) {
            watching.start(requests, source::walkReadsFilesOf);
            // Walk (that registers the directories) and look at every file (that puts a watch on each) now.
            requests.requestRescan();
            schedule.pollAt(System.nanoTime());
        }
        while (running) {
            try {
                long delay = nextDelayNanos();
                if (requests.await(delay)) {
                    if (requests.rescanRequested()) {
                        TimeUnit.NANOSECONDS.sleep(DIRECTORY_EVENT_SPACING_NANOS);
                    }
                }
                cycle(false);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // One bad cycle must not end refreshing; the next cycle starts from the files as they are.
                LOG.error("Refresh cycle failed; retrying", e);
            }
        }
    }

    private long nextDelayNanos() {
        long now = System.nanoTime();
        long due = schedule.delay(now, watching.mode());
        if (requests.rescanRequested()) {
            // A missing root, or a directory that got its watch only after the walk listed it: walk again soon.
            due = Math.min(due, config.pollInterval().toNanos());
        }
        for (TrackedFile file : files.values()) {
            due = file.dueWithin(now, due);
        }
        return Math.max(0, due);
    }

    private void cycle(boolean first) {
        long started = System.nanoTime();
        cycleStartedNanos = started;
        inCycle = true;
        try {
            cycle(first, started);
        } finally {
            inCycle = false;
        }
    }

    private void cycle(boolean first, long started) {
        List<CompletableFuture<MetadataSnapshot>> refreshes = requests.takeRefreshes();
        boolean changed = first || derived != publishedDerived;
        requests.takeEvents(files, started, config.modifySettle().toNanos());
        RefreshSchedule.Mode mode = watching.mode();
        boolean scheduledPoll = first || schedule.pollDue(started);
        boolean fullPoll = requests.takePoll() || scheduledPoll;
        if (requests.takeRescan() || first || schedule.walkDue(started, mode)) {
            changed |= rescan();
        }
        boolean vanished = false;
        long readsBefore = look.reads();
        long pollCpuStarted = THREADS.getCurrentThreadCpuTime();
        look.beginCycle(files.values());
        for (TrackedFile file : files.values()) {
            if (fullPoll || file.checkDue(started)) {
                try {
                    changed |= look.look(file, this::keepWatching);
                } catch (NoSuchFileException e) {
                    vanished = true;
                }
            }
        }
        if (scheduledPoll) {
            // Only a poll that read nothing measures what polling alone costs.
            long cost = look.reads() == readsBefore ? THREADS.getCurrentThreadCpuTime() - pollCpuStarted : 0;
            schedule.polled(System.nanoTime(), cost, mode);
        }
        look.endCycle(budget.view());
        if (vanished) {
            changed |= rescan();
        }
        if (changed) {
            budget.settle(files.values(), started);
            publish();
        }
        refreshes.forEach(refresh -> refresh.complete(snapshot));
        long finished = System.nanoTime();
        status = watching.status(presence.exists(), finished, status.cycles() + 1);
        observer.cycleCompleted(finished - started);
    }

    /** Walks the tree and aligns the tracked files with it; true when files appeared or vanished. */
    private boolean rescan() {
        long cpuStarted = THREADS.getCurrentThreadCpuTime();
        FileSource.Scan scan = source.scan(path -> files.containsKey(path) || budget.track());
        schedule.walked(System.nanoTime(), THREADS.getCurrentThreadCpuTime() - cpuStarted, watching.mode());
        if (!scan.rootExists()) {
            requests.requestRescan(); // poll for the root at every cycle until it appears
        }
        presence.seen(source, scan.rootExists());
        if (watching.watchExactly(scan.directories())) {
            // The walk listed a new directory before its watch existed: whatever was created in between raised
            // no event, so walk once more (next cycle) rather than wait for the rescan interval.
            requests.requestRescan();
        }
        Set<Path> found = new HashSet<>();
        boolean changed = false;
        long now = System.nanoTime();
        for (MetadataFileRef ref : scan.files()) {
            found.add(ref.path());
            if (!files.containsKey(ref.path())) { // admitted, so its bookkeeping is charged
                TrackedFile file = new TrackedFile(ref);
                file.checkAt(now, true);
                files.put(ref.path(), file);
                changed = true;
            }
        }
        budget.untracked(scan.refused());
        boolean removed = false;
        var it = files.values().iterator();
        while (it.hasNext()) {
            TrackedFile file = it.next();
            if (!found.contains(file.ref().path())) {
                it.remove();
                watching.unwatch(file.ref().path());
                file.removed();
                budget.untrack(file);
                removed = true;
            }
        }
        if (removed && scan.refused() > 0) {
            requests.requestRescan(); // what was freed can track a file this walk refused: walk again next cycle
        }
        return changed || removed;
    }

    private void keepWatching(TrackedFile file, Path real, Object fileKey) {
        if (!watching.keep(file, real, fileKey)) {
            for (TrackedFile tracked : files.values()) {
                tracked.watchedKey(null);
            }
            schedule.pollAt(System.nanoTime());
        }
    }

    private void publish() {
        List<DriverInput> served = new ArrayList<>(files.size());
        for (TrackedFile file : files.values()) {
            DriverInput input = file.input();
            if (input != null) {
                served.add(input);
            }
        }
        DerivedClaims derivedNow = derived;
        publishedDerived = derivedNow;
        MetadataSnapshot published = SnapshotBuilder.build(++sequence,
                source.claimsByContent() ? List.of() : SourceMerge.merge(served, derivedNow));
        nodeClaims = source.claimsByContent() ? ClaimScopes.build(sequence, served, derivedNow) : NodeClaims.NONE;
        snapshot = published;
        onPublished.accept(published);
        observer.published(published);
    }
}
