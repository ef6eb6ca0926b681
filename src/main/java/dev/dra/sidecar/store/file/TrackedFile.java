package dev.dra.sidecar.store.file;

import dev.dra.sidecar.decode.DecodedMetadata;
import dev.dra.sidecar.decode.FailureCode;
import dev.dra.sidecar.decode.MetadataDecodeException;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.snapshot.FileState;
import dev.dra.sidecar.store.assembly.DriverInput;
import dev.dra.sidecar.store.config.StoreLog;
import dev.dra.sidecar.store.source.MetadataFileRef;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The refresh loop's memory of one file, and the rules of its states: every transition (read succeeded, read
 * failed, detached, removed) is a method here that logs what a person needs to know and says whether what readers
 * see changed. A failed read of a file being written is retried once the file settles; readers see stale only
 * when a settled file fails. Owned and mutated by the refresh thread only; what readers see is copied into the immutable
 * snapshot.
 */
public final class TrackedFile {

    /** What readers are served from the file. Equal states publish nothing new. */
    sealed interface Served permits Unread, Serving, Failed {}

    /** A state that serves an object. */
    sealed interface Serving extends Served permits Fresh, Stale, Detached {
        Good good();
    }

    /** An object that decoded, and the apiVersion it was decoded from. */
    record Good(DeviceMetadata object, String sourceVersion) {}

    /** Found by a walk, not read yet: not served. */
    record Unread() implements Served {}

    record Fresh(Good good) implements Serving {}

    /** The latest read, of a settled file, failed: the last good object is served, with the reason. */
    record Stale(Good good, FailureCode code, String reason) implements Serving {}

    /** Pinned to a deleted file: the last good object is served, and nothing newer can come. */
    record Detached(Good good, String reason) implements Serving {}

    /** No read decoded yet: the failure is served. */
    record Failed(FailureCode code, String reason) implements Served {}

    private static final Logger LOG = Logger.getLogger(StoreLog.CATEGORY);
    private static final Unread UNREAD = new Unread();

    /** What a read of a file caught between a driver's truncate and write finds: nothing, or a stream cut short. */
    private static final Set<FailureCode> MID_WRITE = EnumSet.of(FailureCode.NO_METADATA_OBJECTS,
            FailureCode.MALFORMED_STREAM);

    final MetadataFileRef ref;

    /** Taken just before the last read, so that a write racing that read is noticed by the next look. */
    Fingerprint fingerprint;

    /** The file identity ({@code fileKey}) the inotify watch is on; {@code null} without a watch. */
    Object watchedKey;

    /** When the refresh loop must look at the file next, if {@link #checkPending}; else only a poll will. */
    long checkAtNanos;

    boolean checkPending;

    /** The next look reads the file even if its fingerprint did not change (an event said it was written). */
    boolean readRequested;

    /** What {@link HeldBudget} charges for the object served now; 0 when none is held. */
    long charge;

    private Served served = UNREAD;
    private long backoffNanos;

    /** A file a walk found: not read yet, so not served. */
    public TrackedFile(MetadataFileRef ref) {
        this.ref = ref;
    }

    /** Where the file is, as its source found it. */
    public MetadataFileRef ref() {
        return ref;
    }

    /** The file identity ({@code fileKey}) the inotify watch is on; {@code null} without a watch. */
    public Object watchedKey() {
        return watchedKey;
    }

    /** The watch is now on the file identity {@code fileKey}; {@code null}: the file has no watch. */
    public void watchedKey(Object fileKey) {
        watchedKey = fileKey;
    }

    Served served() {
        return served;
    }

    FileState state() {
        if (served instanceof Fresh) {
            return FileState.OK;
        }
        if (served instanceof Stale) {
            return FileState.STALE;
        }
        if (served instanceof Detached) {
            return FileState.DETACHED;
        }
        return FileState.FAILED;
    }

    boolean wasRead() {
        return !(served instanceof Unread);
    }

    boolean isDetached() {
        return served instanceof Detached;
    }

    /** Asks for a look at {@code atNanos} (or earlier, if one is due earlier). */
    public void checkAt(long atNanos, boolean read) {
        if (!checkPending || atNanos - checkAtNanos < 0) {
            checkAtNanos = atNanos;
            checkPending = true;
        }
        readRequested |= read;
    }

    /** Whether a look is due at {@code nowNanos}. */
    public boolean checkDue(long nowNanos) {
        return checkPending && nowNanos - checkAtNanos >= 0;
    }

    /** How long after {@code nowNanos} a look asked for is due, or {@code boundNanos} if that is sooner or none is. */
    public long dueWithin(long nowNanos, long boundNanos) {
        return checkPending && checkAtNanos - nowNanos < boundNanos ? checkAtNanos - nowNanos : boundNanos;
    }

    /** A look was done: nothing more is due until an event, the safety poll or a retry asks. */
    void checked() {
        checkPending = false;
        readRequested = false;
    }

    /**
     * The read decoded. A first read in a scan of many files ({@code quietFirstRead}) logs at debug level only: the
     * scan logs one summary line instead. @return whether what readers see changed
     */
    public boolean readSucceeded(DecodedMetadata decoded, boolean quietFirstRead) {
        Served before = served;
        backoffNanos = 0;
        served = new Fresh(new Good(decoded.object(), decoded.sourceVersion()));
        Good previous = good(before);
        if (quietFirstRead && before instanceof Unread) {
            LOG.debugf("%s: generation %s (%s)", ref.path(), generation(decoded.object()), decoded.sourceVersion());
        } else if (previous == null || !previous.object().equals(decoded.object())) {
            LOG.infof("%s: generation %s (%s)%s", ref.path(), generation(decoded.object()), decoded.sourceVersion(),
                    before instanceof Stale || before instanceof Detached ? ", recovered" : "");
        } else if (!(before instanceof Fresh)) {
            LOG.infof("%s: recovered, generation %s", ref.path(), generation(decoded.object()));
        }
        return !before.equals(served);
    }

    /**
     * The read decoded, but holding it does not fit the memory bound: the object served before (if any) stays,
     * marked stale with {@code reason}, else the refusal is served. No retry: the store reads refused files again
     * when memory is freed. @return whether what readers see changed
     */
    boolean refused(String reason) {
        Served before = served;
        Good good = good(before);
        served = good == null ? new Failed(FailureCode.MEMORY_BOUND_REACHED, reason)
                : new Stale(good, FailureCode.MEMORY_BOUND_REACHED, reason);
        LOG.debugf("%s: not held: %s", ref.path(), reason);
        return !before.equals(served);
    }

    /** Whether the latest read was refused by the memory bound. */
    boolean isRefused() {
        return failureCode(served) == FailureCode.MEMORY_BOUND_REACHED;
    }

    /**
     * Whether {@link #readFailed} holds this failure back: the file serves an object and the read found it empty or
     * cut short while it was being written. Such a read says nothing about the file, only about when it was read.
     */
    boolean heldBack(MetadataDecodeException failure, long settlingNanos) {
        return settlingNanos > 0 && MID_WRITE.contains(failure.code()) && good(served) != null;
    }

    /**
     * The read failed. A failed read of a file being written is retried once the file settles; readers see stale
     * only when a settled file fails. So when the file serves an object and the read found it empty or cut short
     * while it was being written ({@code settlingNanos > 0}: modified within the settle window before the read,
     * or during it), nothing readers see changes and the file is read again in {@code settlingNanos}. Otherwise
     * the last good object stays served, marked stale (with none, the failure is served), and a retry is
     * scheduled after a backoff that doubles from {@code min} up to {@code max}.
     *
     * @return whether what readers see changed
     */
    boolean readFailed(MetadataDecodeException failure, long nowNanos, long settlingNanos, Duration min,
            Duration max) {
        if (heldBack(failure, settlingNanos)) {
            checkAt(nowNanos + settlingNanos, true);
            LOG.debugf("%s: read while being written, reading again once it settles: %s", ref.path(),
                    failure.getMessage());
            return false;
        }
        Served before = served;
        backoffNanos = backoffNanos == 0 ? min.toNanos() : Math.min(backoffNanos * 2, max.toNanos());
        checkAt(nowNanos + backoffNanos, true);
        Good good = good(before);
        served = good == null ? new Failed(failure.code(), failure.getMessage())
                : new Stale(good, failure.code(), failure.getMessage());
        if (failureCode(before) != failure.code()) {
            if (good != null) {
                LOG.warnf("stale, still serving generation %s: %s [%s]", generation(good.object()), failure.getMessage(),
                        failure.code().code());
            } else {
                LOG.warnf("%s [%s]", failure.getMessage(), failure.code().code());
            }
        }
        return !before.equals(served);
    }

    /**
     * The path now leads to a deleted file ({@code st_nlink} 0): a bind mount of a file that the host replaced by
     * rename. Its last good object stays served, marked stale; with none, the failure stays. No retry is
     * scheduled: nothing can change until the mount does. @return whether what readers see changed
     */
    boolean detached() {
        Served before = served;
        Good good = good(before);
        if (before instanceof Detached || good == null) {
            return false;
        }
        backoffNanos = 0;
        checked();
        served = new Detached(good, ref.path() + ": replaced on the host by a rename; this "
                + "container's bind mount still shows the deleted file, so no update can reach it until the pod "
                + "restarts");
        LOG.warnf("%s: detached, still serving generation %s. The driver replaced this file on the host (wrote a new "
                + "file and renamed it over the old one); the container's bind mount stays on the old, deleted file "
                + "(link count 0), so no later update can be seen. Fix: restart the pod; the driver should rewrite "
                + "the file in place (truncate and write) instead of replacing it.", ref.path(), generation(good.object()));
        return true;
    }

    /** The file is gone from the tree. */
    public void removed() {
        LOG.infof("%s: removed", ref.path());
    }

    /** The reason readers are shown with a stale object ({@code <code>: <detail>}), {@code null} when fresh. */
    String staleReason() {
        if (served instanceof Stale stale) {
            return stale.code().code() + ": " + stale.reason();
        }
        if (served instanceof Detached detached) {
            return "detached: " + detached.reason();
        }
        return null;
    }

    /**
     * What readers are served of the file now, for a snapshot; {@code null} while it was never read (a file found by
     * the walk a vanished file triggered, after that cycle's reads, is served from its first read).
     */
    public DriverInput input() {
        if (served instanceof Unread) {
            return null;
        }
        if (served instanceof Failed failed) {
            return new DriverInput(ref.kind(), ref.claim(), ref.request(), ref.driver(), ref.fileName(), ref.shown(),
                    state(), null, null, null, new dev.dra.sidecar.snapshot.Served.Unavailable(failed.code(),
                            failed.reason()));
        }
        Good good = good();
        return new DriverInput(ref.kind(), ref.claim(), ref.request(), ref.driver(), ref.fileName(), ref.shown(),
                state(), good.object(), good.sourceVersion(), staleReason(), null);
    }

    /** The object served now, {@code null} when none. */
    Good good() {
        return good(served);
    }

    private static Good good(Served served) {
        return served instanceof Serving serving ? serving.good() : null;
    }

    private static FailureCode failureCode(Served served) {
        if (served instanceof Stale stale) {
            return stale.code();
        }
        if (served instanceof Failed failed) {
            return failed.code();
        }
        return null;
    }

    private static Object generation(DeviceMetadata object) {
        var meta = object.metadata();
        return meta == null || meta.generation() == null ? "none" : meta.generation();
    }
}
