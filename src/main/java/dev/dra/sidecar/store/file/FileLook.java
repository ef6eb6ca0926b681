package dev.dra.sidecar.store.file;

import dev.dra.sidecar.decode.DecodedMetadata;
import dev.dra.sidecar.decode.FailureCode;
import dev.dra.sidecar.decode.MetadataDecodeException;
import dev.dra.sidecar.decode.MetadataStreamDecoder;
import dev.dra.sidecar.store.config.StoreConfig;
import dev.dra.sidecar.store.config.StoreLog;
import dev.dra.sidecar.store.source.BoundedFileReader;
import dev.dra.sidecar.store.source.FileSource;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * One look at one tracked file, on the refresh thread: a stat, and a read only when the file changed or an event
 * said it was written. Guarantees that no torn read reaches the file's state: a read that overlapped a write is
 * discarded, a recently modified file is read twice and must give the same bytes, and a failure of a file met while
 * being written is held back until the file settles ({@link #SETTLE_MILLIS}).
 */
public final class FileLook {

    private static final Logger LOG = Logger.getLogger(StoreLog.CATEGORY);

    /** Keeps the file's inotify watch on the file its path leads to now ({@code real}, or the path itself). */
    public interface Watching {
        void keep(TrackedFile file, Path real, Object fileKey);
    }

    /** Told of each read a look reports: its failure's code, {@code null} when it decoded. */
    @FunctionalInterface
    public interface ReadReport {
        void fileRead(FailureCode failure);
    }

    /**
     * File timestamps advance in ticks of a few milliseconds: a rewrite within the same tick as our read keeps
     * size and time. A file modified this recently before a read is read once more when this much has passed,
     * and a failed read of it (empty or cut short: a driver between truncate and write) is not served until then.
     */
    public static final long SETTLE_MILLIS = 100;

    private final StoreConfig config;
    private final FileSource source;
    private final BoundedFileReader reader;
    private final ReadReport report;
    private final HeldBudget budget;
    private long reads;
    /** Set for a cycle that reads more than {@link #LOGGED_ONE_BY_ONE} files for the first time: one summary line. */
    private boolean bulk;
    private long bulkStartedNanos;
    private int bulkNew;
    private int bulkServed;

    /** A cycle that reads at most this many files for the first time logs each; more get one summary line. */
    static final int LOGGED_ONE_BY_ONE = 10;

    /** Looks at files of {@code source}, holds what they decode against {@code budget}, and tells {@code report}. */
    public FileLook(StoreConfig config, FileSource source, ReadReport report, HeldBudget budget) {
        this.config = config;
        this.budget = budget;
        this.source = source;
        this.reader = new BoundedFileReader(config.maxFileSize().asLongValue());
        this.report = report;
    }

    /** Before a cycle's looks: how many of {@code files} are still unread decides whether each first read logs. */
    public void beginCycle(Iterable<TrackedFile> files) {
        int unread = 0;
        for (TrackedFile file : files) {
            if (!file.wasRead()) {
                unread++;
            }
        }
        bulk = unread > LOGGED_ONE_BY_ONE;
        bulkNew = unread;
        bulkServed = 0;
        bulkStartedNanos = System.nanoTime();
    }

    /** After a cycle's looks: the summary line of a cycle that read many files for the first time. */
    public void endCycle(HeldBudget.View held) {
        if (bulk) {
            LOG.infof("Read %d new metadata files in %d ms: %d served, %d not (failures are logged one by one, "
                    + "files past the memory bound in one line); %d held, %s estimated of %s", bulkNew,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - bulkStartedNanos), bulkServed,
                    bulkNew - bulkServed, held.files(), HeldBudget.mib(held.heldBytes()), HeldBudget.mib(held.bound()));
            bulk = false;
        }
    }

    /** Files read so far: a poll that read none measures what polling alone costs. */
    public long reads() {
        return reads;
    }

    /**
     * Looks at the file: has {@code watching} keep its watch on the file the path leads to now, notices a detached
     * bind mount, and reads the file again if its fingerprint changed or an event said it was written. True when
     * what readers see of it changed.
     *
     * @throws NoSuchFileException the file is gone, or now leads outside the root: the caller walks the tree again
     */
    public boolean look(TrackedFile file, Watching watching) throws NoSuchFileException {
        long now = System.nanoTime();
        boolean readRequested = file.readRequested;
        file.checked();
        Path real = null;
        FileStat stat;
        try {
            // One stat per look, not a path resolution: in polling mode looks run twenty times a second. A link
            // needs its target's attributes; anything swapped in after the walk is checked again before reading.
            stat = FileStat.ofLink(file.ref.path());
            if (stat.symbolicLink()) {
                real = resolveInside(file);
                stat = FileStat.of(real);
            }
        } catch (NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            return failed(file, now, 0, new MetadataDecodeException(FailureCode.UNREADABLE,
                    file.ref.path() + ": cannot read file attributes: " + reason(e)));
        }
        Fingerprint fingerprint = stat.fingerprint();
        if (file.isDetached() && stat.detached()) {
            return false; // nothing can change behind a detached mount
        }
        watching.keep(file, real, fingerprint.fileKey());
        boolean changed = false;
        if (readRequested || !fingerprint.equals(file.fingerprint) || file.isDetached()) {
            changed = read(file, real, stat, now);
        }
        if (stat.detached()) {
            changed |= file.detached();
        }
        return changed;
    }

    private boolean read(TrackedFile file, Path real, FileStat stat, long now) throws NoSuchFileException {
        reads++;
        long readWallMillis = System.currentTimeMillis();
        file.fingerprint = stat.fingerprint();
        long sinceModified = readWallMillis - stat.fingerprint().modified().toMillis();
        boolean unsettled = sinceModified < SETTLE_MILLIS;
        if (unsettled) {
            // A write in the same timestamp tick as this read would leave the fingerprint as it is: read once
            // more when the tick has surely passed.
            file.checkAt(now + TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS - Math.max(0, sinceModified)), true);
        }
        // A file modified this recently may be between a driver's truncate and write: a failure is held back
        // until then. A modification time in the future is no write in progress: its failure is served.
        long settlingNanos = unsettled && sinceModified >= 0
                ? TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS - sinceModified) : 0;
        DecodedMetadata decoded;
        try {
            Path target = real == null ? resolveInside(file) : real;
            byte[] bytes = readSteady(target, stat.fingerprint(), unsettled);
            if (bytes == null) {
                // Written during the read: the file has just been modified, whatever the stat before said.
                return failed(file, now, TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS),
                        new MetadataDecodeException(FailureCode.MALFORMED_STREAM,
                                file.ref.path() + ": rewritten while being read; reading again"));
            }
            decoded = MetadataStreamDecoder.decode(bytes, file.ref.path().toString());
        } catch (MetadataDecodeException e) {
            return failed(file, now, settlingNanos, e);
        } catch (NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            return failed(file, now, 0, new MetadataDecodeException(FailureCode.UNREADABLE,
                    file.ref.path() + ": cannot read file: " + reason(e)));
        }
        long charge = HeldCharge.of(decoded.object());
        if (!budget.take(file.charge, charge)) {
            report.fileRead(FailureCode.MEMORY_BOUND_REACHED);
            return file.refused(budget.refusal());
        }
        file.charge = charge;
        report.fileRead(null);
        if (bulk && !file.wasRead()) {
            bulkServed++;
        }
        return file.readSucceeded(decoded, bulk);
    }

    /**
     * A failed read is reported unless it is held back (a file met while being written: it is read
     * again once it settles, and readers see nothing of it).
     *
     * @param settlingNanos how long until the file has settled, 0 when it has ({@link TrackedFile#readFailed})
     */
    private boolean failed(TrackedFile file, long now, long settlingNanos, MetadataDecodeException failure) {
        if (!file.heldBack(failure, settlingNanos)) {
            report.fileRead(failure.code());
        }
        return file.readFailed(failure, now, settlingNanos, config.retryBackoffMin(), config.retryBackoffMax());
    }

    /** Where the file leads now; a file that now leads out of the root is treated as gone (the walk drops it). */
    private Path resolveInside(TrackedFile file) throws IOException {
        Path real = source.resolveInside(file.ref.path());
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
        return before.equals(FileStat.of(real).fingerprint()) ? bytes : null;
    }

    /**
     * Why an I/O operation failed, in words: the JDK's file exceptions carry only the path as their message
     * (an unreadable file said "cannot read file: /path"), the reason is separate.
     */
    private static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied (this process's user may not read it, or may not pass a directory above it)";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
