package dev.dra.sidecar.store;

import dev.dra.sidecar.decode.DecodedMetadata;
import dev.dra.sidecar.decode.FailureCode;
import dev.dra.sidecar.decode.MetadataDecodeException;
import dev.dra.sidecar.decode.MetadataStreamDecoder;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Keeps an immutable, always-consistent snapshot of every metadata file under the root.
 *
 * <p>One refresh thread does all file work: it walks the tree (at start, on watch events, when a file vanished,
 * and every rescan interval), polls each known file's fingerprint every poll interval, re-reads a file only
 * when its fingerprint changed (or a failed read is due for a retry), and publishes a new snapshot only when
 * what readers would see changed. Readers call {@link #current()} and never block that thread.
 *
 * <p>Torn reads never reach a reader: once a file decoded, a failed read keeps serving the last good object,
 * marked stale with the reason, and is retried with a doubling backoff until a good read replaces it.
 */
public final class MetadataStore implements AutoCloseable {

    /** The store's settings; see {@link StoreConfig} for what each means. */
    public record Settings(Path root, Duration pollInterval, Duration rescanInterval, boolean watch, long maxFileSize,
            Duration retryBackoffMin, Duration retryBackoffMax) {

        public static Settings of(StoreConfig config) {
            return new Settings(config.root(), config.pollInterval(), config.rescanInterval(), config.watch(),
                    config.maxFileSize().asLongValue(), config.retryBackoffMin(), config.retryBackoffMax());
        }

        /** Defaults, on another root: what tests and tools start from. */
        public static Settings defaults(Path root) {
            return new Settings(root, Duration.ofMillis(50), Duration.ofSeconds(2), true, 1024 * 1024,
                    Duration.ofMillis(10), Duration.ofSeconds(2));
        }

        public Settings withWatch(boolean enabled) {
            return new Settings(root, pollInterval, rescanInterval, enabled, maxFileSize, retryBackoffMin,
                    retryBackoffMax);
        }

        public Settings withMaxFileSize(long bytes) {
            return new Settings(root, pollInterval, rescanInterval, watch, bytes, retryBackoffMin, retryBackoffMax);
        }
    }

    /**
     * @param rootExists whether the metadata root was there at the last walk
     * @param watching whether inotify hints are in use (else polling alone)
     * @param lastCycleNanos {@link System#nanoTime()} when the last refresh cycle completed
     * @param cycles refresh cycles completed
     */
    public record Status(boolean rootExists, boolean watching, long lastCycleNanos, long cycles) {}

    private static final Logger LOG = Logger.getLogger(MetadataStore.class);

    /**
     * File timestamps advance in ticks of a few milliseconds: a rewrite within the same tick as our read keeps
     * size and time. A file modified this recently before a read is read once more on the next poll.
     */
    private static final long SETTLE_MILLIS = 100;

    /** Poll and rescan intervals are at least this many times the CPU time polling or walking the tree takes. */
    private static final long POLL_COST_FACTOR = 20;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Watch events can come in bursts; cycles are at least this far apart. */
    private static final long MIN_CYCLE_SPACING_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final Settings settings;
    private final TreeScanner scanner;
    private final BoundedFileReader reader;
    private final RefreshObserver observer;
    private final Semaphore wake = new Semaphore(0);
    private final AtomicBoolean rescanRequested = new AtomicBoolean(true);
    private final Map<Path, TrackedFile> files = new LinkedHashMap<>();

    private volatile MetadataSnapshot snapshot;
    private final ChangeWaiters waiters = new ChangeWaiters();
    private volatile Status status;
    private volatile boolean running;
    private DirectoryWatcher watcher;
    private Thread thread;
    private long sequence;
    private long nextRescanNanos;
    private long pollCostNanos;
    private long reads;
    private Boolean rootSeen;

    public MetadataStore(Settings settings, RefreshObserver observer) {
        this.settings = settings;
        this.scanner = new TreeScanner(settings.root());
        this.reader = new BoundedFileReader(settings.maxFileSize());
        this.observer = observer;
        this.snapshot = SnapshotBuilder.build(0, List.of());
        this.status = new Status(false, false, System.nanoTime(), 0);
    }

    /** Runs the first full scan on the calling thread, so that the first snapshot is complete, then starts refreshing. */
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        if (settings.watch()) {
            watcher = DirectoryWatcher.start(new DirectoryWatcher.Listener() {
                @Override
                public void contentChanged() {
                    wake.release();
                }

                @Override
                public void treeChanged() {
                    rescanRequested.set(true);
                    wake.release();
                }
            });
        }
        cycle(true);
        thread = new Thread(this::loop, "dra-metadata-refresh");
        thread.setDaemon(true);
        thread.start();
    }

    /** The snapshot being served now. Never blocks. */
    public MetadataSnapshot current() {
        return snapshot;
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

    /** {@link #awaitChange} as a future; cancelling it cancels the wait. */
    public CompletableFuture<MetadataSnapshot> changeAfter(long sequence) {
        CompletableFuture<MetadataSnapshot> future = new CompletableFuture<>();
        Runnable cancel = awaitChange(sequence, future::complete);
        future.whenComplete((s, e) -> cancel.run());
        return future;
    }

    /**
     * Answers every waiting caller now with the current snapshot, and every later one at once: called when the
     * application stops, so long polls end with a normal answer instead of a reset, and nothing holds the
     * shutdown. Refreshing goes on until {@link #close()}.
     */
    public void answerWaitersNow() {
        waiters.drain(snapshot);
    }

    /** Whether {@link #answerWaitersNow()} was called: a caller must not start waiting again. */
    public boolean draining() {
        return waiters.draining();
    }

    /** Callers waiting for a change, for metrics. */
    public int waiting() {
        return waiters.size();
    }

    public Status status() {
        return status;
    }

    public Path root() {
        return scanner.root();
    }

    @Override
    public synchronized void close() {
        running = false;
        if (watcher != null) {
            watcher.close();
        }
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void loop() {
        while (running) {
            try {
                long delay = nextDelayNanos();
                if (wake.tryAcquire(delay, TimeUnit.NANOSECONDS)) {
                    wake.drainPermits();
                    TimeUnit.NANOSECONDS.sleep(MIN_CYCLE_SPACING_NANOS);
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
        // A tree so large that polling it costs more CPU than a twentieth of the poll interval is polled less
        // often, so that polling never takes more than about 5 % of a core; small trees keep the interval.
        long interval = Math.max(settings.pollInterval().toNanos(), pollCostNanos * POLL_COST_FACTOR);
        long due = now + interval;
        for (TrackedFile file : files.values()) {
            if (file.failure != null && file.retryAtNanos - due < 0) {
                due = file.retryAtNanos;
            }
        }
        return Math.max(0, due - now);
    }

    private void cycle(boolean first) {
        long started = System.nanoTime();
        boolean changed = first;
        if (rescanRequested.getAndSet(false) || started - nextRescanNanos >= 0) {
            changed |= rescan();
        }
        boolean vanished = false;
        long readsBefore = reads;
        long pollCpuStarted = THREADS.getCurrentThreadCpuTime();
        for (TrackedFile file : files.values()) {
            try {
                changed |= poll(file);
            } catch (NoSuchFileException e) {
                vanished = true;
            }
        }
        if (reads == readsBefore) {
            // Only a cycle that read nothing measures what polling alone costs.
            pollCostNanos = THREADS.getCurrentThreadCpuTime() - pollCpuStarted;
        }
        if (vanished) {
            changed |= rescan();
        }
        if (changed) {
            publish();
        }
        long finished = System.nanoTime();
        status = new Status(Boolean.TRUE.equals(rootSeen), watcher != null, finished, status.cycles() + 1);
        observer.cycleCompleted(finished - started);
    }

    /** Walks the tree and aligns the tracked files with it; true when files appeared or vanished. */
    private boolean rescan() {
        long cpuStarted = THREADS.getCurrentThreadCpuTime();
        TreeScanner.Scan scan = scanner.scan();
        // Like polling, walking a huge tree is spaced out so that it takes at most about 5 % of a core.
        long walkCost = THREADS.getCurrentThreadCpuTime() - cpuStarted;
        nextRescanNanos = System.nanoTime() + Math.max(settings.rescanInterval().toNanos(), walkCost * POLL_COST_FACTOR);
        if (!scan.rootExists()) {
            // Poll for the root at every cycle until it appears.
            rescanRequested.set(true);
        }
        if (!Objects.equals(rootSeen, scan.rootExists())) {
            if (scan.rootExists()) {
                LOG.infof("Metadata root %s found", scanner.root());
            } else {
                LOG.warnf("Metadata root %s does not exist: no claim is visible to this container. List every "
                        + "claim in the sidecar container's own resources.claims; kubelet mounts only those.",
                        scanner.root());
            }
            rootSeen = scan.rootExists();
        }
        if (watcher != null && watcher.watchExactly(scan.directories())) {
            // The walk listed a new directory before its watch existed: whatever was created in between raised
            // no event, so walk once more (next cycle) rather than wait for the rescan interval.
            rescanRequested.set(true);
        }
        Set<Path> found = new HashSet<>();
        boolean changed = false;
        for (MetadataFileRef ref : scan.files()) {
            found.add(ref.path());
            if (!files.containsKey(ref.path())) {
                files.put(ref.path(), new TrackedFile(ref));
                changed = true;
            }
        }
        var it = files.values().iterator();
        while (it.hasNext()) {
            TrackedFile file = it.next();
            if (!found.contains(file.ref.path())) {
                it.remove();
                LOG.infof("%s: removed", file.ref.path());
                changed = true;
            }
        }
        return changed;
    }

    /** Reads the file again if its fingerprint says so; true when what readers see of it changed. */
    private boolean poll(TrackedFile file) throws NoSuchFileException {
        long now = System.nanoTime();
        Path real = null;
        BasicFileAttributes attributes;
        try {
            // One stat per poll, not a path resolution: polls run twenty times a second. A link needs its target's
            // attributes; anything swapped in after the walk changes the fingerprint and is checked before reading.
            attributes = Files.readAttributes(file.ref.path(), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (attributes.isSymbolicLink()) {
                real = resolveInside(file);
                attributes = Files.readAttributes(real, BasicFileAttributes.class);
            }
        } catch (NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            return fail(file, now, new MetadataDecodeException(FailureCode.UNREADABLE,
                    file.ref.path() + ": cannot read file attributes: " + reason(e)));
        }
        Fingerprint fingerprint = Fingerprint.of(attributes);
        boolean due = !fingerprint.equals(file.fingerprint) || file.unsettled
                || (file.failure != null && now - file.retryAtNanos >= 0);
        if (!due) {
            return false;
        }
        reads++;
        long readWallMillis = System.currentTimeMillis();
        file.fingerprint = fingerprint;
        file.unsettled = attributes.lastModifiedTime().toMillis() > readWallMillis - SETTLE_MILLIS;
        DecodedMetadata decoded;
        try {
            if (real == null) {
                real = resolveInside(file);
            }
            byte[] bytes = readSteady(real, fingerprint, file.unsettled);
            if (bytes == null) {
                return fail(file, now, new MetadataDecodeException(FailureCode.MALFORMED_STREAM,
                        file.ref.path() + ": rewritten while being read; reading again"));
            }
            decoded = MetadataStreamDecoder.decode(bytes, file.ref.path().toString());
        } catch (MetadataDecodeException e) {
            return fail(file, now, e);
        } catch (NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            return fail(file, now, new MetadataDecodeException(FailureCode.UNREADABLE,
                    file.ref.path() + ": cannot read file: " + reason(e)));
        }
        observer.fileRead(null);
        Object before = file.servedState();
        DecodedMetadata previous = file.good;
        boolean wasFailing = file.failure != null;
        file.good = decoded;
        file.failure = null;
        file.backoffNanos = 0;
        if (previous == null || !previous.equals(decoded)) {
            LOG.infof("%s: generation %s (%s)%s", file.ref.path(), generation(decoded), decoded.sourceVersion(),
                    wasFailing && previous != null ? ", recovered" : "");
        } else if (wasFailing) {
            LOG.infof("%s: recovered, generation %s", file.ref.path(), generation(decoded));
        }
        return !before.equals(file.servedState());
    }

    /** Where the file leads now; a file that now leads out of the root is treated as gone (the walk drops it). */
    private Path resolveInside(TrackedFile file) throws IOException {
        Path real = scanner.resolveInside(file.ref.path());
        if (real == null) {
            throw new NoSuchFileException(file.ref.path().toString(), null, "leads outside the root");
        }
        return real;
    }

    /**
     * The file's bytes as one write left them, or {@code null} when a write overlapped the read. A file larger
     * than one read call is read in several, and a rewrite between two of them stitches the head of one
     * version to the tail of another: often valid JSON, an object that never existed. A write during the read
     * changes the fingerprint, unless it falls in the same timestamp tick as the one before and keeps the
     * size; so a recently modified file is read twice and must give the same bytes both times.
     */
    private byte[] readSteady(Path real, Fingerprint before, boolean recentlyModified)
            throws MetadataDecodeException, IOException {
        byte[] bytes = reader.read(real);
        if (recentlyModified && !Arrays.equals(bytes, reader.read(real))) {
            return null;
        }
        return before.equals(Fingerprint.of(Files.readAttributes(real, BasicFileAttributes.class))) ? bytes : null;
    }

    private boolean fail(TrackedFile file, long now, MetadataDecodeException failure) {
        observer.fileRead(failure.code());
        Object before = file.servedState();
        FailureCode previousCode = file.failure == null ? null : file.failure.code();
        file.failure = failure;
        long min = settings.retryBackoffMin().toNanos();
        file.backoffNanos = file.backoffNanos == 0 ? min
                : Math.min(file.backoffNanos * 2, settings.retryBackoffMax().toNanos());
        file.retryAtNanos = now + file.backoffNanos;
        if (previousCode != failure.code()) {
            if (file.good != null) {
                LOG.warnf("stale, still serving generation %s: %s [%s]", generation(file.good),
                        failure.getMessage(), failure.code().code());
            } else {
                LOG.warnf("%s [%s]", failure.getMessage(), failure.code().code());
            }
        }
        return !before.equals(file.servedState());
    }

    /**
     * Why an I/O operation failed, in words: the JDK's file exceptions carry only the path as their message
     * (an unreadable file said "cannot read file: /path"), the reason is separate.
     */
    static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied (the sidecar's user may not read it)";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static Object generation(DecodedMetadata decoded) {
        var meta = decoded.object().metadata();
        return meta == null || meta.generation() == null ? "none" : meta.generation();
    }

    private void publish() {
        MetadataSnapshot published = SnapshotBuilder.build(++sequence, files.values());
        snapshot = published;
        waiters.publish(published);
        observer.published(published);
    }
}
