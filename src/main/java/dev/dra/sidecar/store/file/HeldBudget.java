package dev.dra.sidecar.store.file;

import dev.dra.sidecar.store.config.StoreConfig;
import dev.dra.sidecar.store.config.StoreLog;
import java.util.Collection;
import java.util.Locale;
import org.jboss.logging.Logger;

/**
 * The memory bound of what the store holds, and what it holds now. Each tracked file is charged
 * {@link #PER_TRACKED}, and each held file besides what {@link HeldCharge} estimates for its decoded object; both are
 * upper estimates of the heap taken (docs/operations.md, "Memory bound"). A file
 * whose charge does not fit is not held: it answers {@code memory-bound-reached} with {@link #refusal()}, and the
 * others are served. Owned by the refresh thread; {@link #view()} is safe to read from any thread.
 */
public final class HeldBudget {

    private static final Logger LOG = Logger.getLogger(StoreLog.CATEGORY);

    /**
     * What every tracked file costs, held or not: its paths, fingerprint, inotify watches (its own and its
     * directory's), snapshot entries. Tracking takes at most half of the bound, so that what is tracked can also be
     * held; a file found past that is not even tracked.
     */
    public static final long PER_TRACKED = 2048;

    /**
     * The default bound: this share of the maximum heap. The rest is for the sidecar itself and what the API's bounds
     * let clients take.
     */
    static final double HEAP_SHARE = 0.65;

    /**
     * @param heldBytes the estimate charged for the files held now
     * @param bound the most that may be charged
     * @param files files held
     * @param refused files not held because their charge did not fit
     * @param untracked files found by the last walk but not even tracked: their bookkeeping did not fit
     * @param boundSource where the bound comes from, in words
     */
    public record View(long heldBytes, long bound, int files, int refused, int untracked, String boundSource) {}

    private final long bound;
    private final String boundSource;
    private final String refusal;
    private long held;
    private long tracking;
    private int files;
    private int refused;
    private int untracked;
    private int reportedUntracked;
    private boolean freed;
    private volatile View view;

    /** The bound {@code dra.metadata.max-held} sets, else {@link #HEAP_SHARE} of the maximum heap; nothing held. */
    public HeldBudget(StoreConfig config) {
        long maxHeap = Runtime.getRuntime().maxMemory();
        if (config.maxHeld().isPresent()) {
            bound = config.maxHeld().get().asLongValue();
            boundSource = "dra.metadata.max-held";
        } else {
            bound = (long) (maxHeap * HEAP_SHARE);
            boundSource = String.format(Locale.ROOT, "%d %% of the maximum heap of %s, which the container's memory "
                    + "limit sets", Math.round(HEAP_SHARE * 100), mib(maxHeap));
        }
        refusal = "not held: the sidecar's memory bound of " + mib(bound) + " (" + boundSource + ") is reached; it "
                + "holds what fits and refuses the rest. Raise the sidecar container's memory limit "
                + "(resources.limits.memory; the heap is a share of it) or dra.metadata.max-held";
        publish();
    }

    /**
     * Charges {@code charge} in place of {@code previous} (0 for a file not held) if the difference fits.
     *
     * @return whether it fit (else nothing changed)
     */
    boolean take(long previous, long charge) {
        if (tracking + held - previous + charge > bound) {
            return false;
        }
        held += charge - previous;
        if (previous == 0) {
            files++;
        }
        publish();
        return true;
    }

    /** A file found by a walk: charges its bookkeeping if that fits. @return whether it fit (then track it) */
    public boolean track() {
        if (tracking + PER_TRACKED > bound / 2) {
            return false;
        }
        tracking += PER_TRACKED;
        publish();
        return true;
    }

    /** Files the last walk found but could not track. */
    public void untracked(int count) {
        untracked = count;
        publish();
    }

    /** A tracked file is gone: its bookkeeping is freed, and its held charge if any ({@link #release}). */
    public void untrack(TrackedFile file) {
        tracking -= PER_TRACKED;
        release(file);
        freed = true;
        publish();
    }

    /** A held file is gone: its charge is freed, and refused files get another read at the next {@link #settle}. */
    void release(TrackedFile file) {
        if (file.charge > 0) {
            held -= file.charge;
            files--;
            file.charge = 0;
            freed = true;
            publish();
        }
    }

    /**
     * After a cycle that changed what is served: counts the refused files, says so in one log line when that count
     * changes, and asks for a read of each refused file when memory was freed since the last call.
     */
    public void settle(Collection<TrackedFile> tracked, long nowNanos) {
        int count = 0;
        for (TrackedFile file : tracked) {
            if (file.isRefused()) {
                count++;
                if (freed) {
                    file.checkAt(nowNanos, true);
                }
            }
        }
        freed = false;
        if (count != refused || untracked != reportedUntracked) {
            if (count > 0 || untracked > 0) {
                LOG.warnf("Memory bound reached: %d file(s) held (%s estimated of %s, %s), %d file(s) not held "
                        + "answer memory-bound-reached, %d more not even tracked (not found). Raise the sidecar "
                        + "container's memory limit or dra.metadata.max-held to serve them", files, mib(tracking + held),
                        mib(bound), boundSource, count, untracked);
            } else {
                LOG.infof("Every file is held again (%s estimated of the memory bound of %s)", mib(tracking + held),
                        mib(bound));
            }
            refused = count;
            reportedUntracked = untracked;
            publish();
        }
    }

    /** What is held now against the bound; safe from any thread. */
    public View view() {
        return view;
    }

    /**
     * The detail every refused file answers with: the bound, what it holds, and what to raise. One string for all of
     * them, so that refusing many files costs no memory per file.
     */
    String refusal() {
        return refusal;
    }

    private void publish() {
        view = new View(tracking + held, bound, files, refused, untracked, boundSource);
    }

    /** {@code bytes} in MiB with one decimal, as the store's messages give sizes. */
    public static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
