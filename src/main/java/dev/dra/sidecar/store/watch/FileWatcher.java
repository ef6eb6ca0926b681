package dev.dra.sidecar.store.watch;

import com.sun.jna.LastErrorException;
import com.sun.jna.NativeLong;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Keeps an inotify watch on each metadata file itself: unlike a watch on its directory, it sees an in-place rewrite
 * through a single-file bind mount. One thread blocks in {@code poll(2)} on the inotify descriptor (and an
 * eventfd that {@link #close()} signals), so waiting costs no CPU; it turns each event into a {@link Listener}
 * call naming the watched path.
 *
 * <p>Several paths can lead to one file (symbolic links inside the root): they share the kernel's watch, and the
 * watch is removed only when no path uses it any more. {@link #watch} and {@link #unwatch} are called by the
 * refresh thread only; the listener is called on the watch thread and must not block.
 */
public final class FileWatcher implements AutoCloseable {

    /** What an event asks of the refresh loop. */
    public enum Event {
        /** Closed after writing ({@code IN_CLOSE_WRITE}): read now. */
        WRITTEN,
        /** Written, still open ({@code IN_MODIFY}): read after a short settle. */
        MODIFIED,
        /**
         * Attributes or identity changed ({@code IN_ATTRIB}: mode, times, link count; {@code IN_DELETE_SELF},
         * {@code IN_MOVE_SELF}, {@code IN_UNMOUNT}; {@code IN_IGNORED}: the watch is gone): look at the path and
         * read it now.
         */
        CHANGED
    }

    /** What the watcher tells, on its own thread: must not block. */
    public interface Listener {
        /** {@code event} happened to the file {@code path} leads to. */
        void fileEvent(Path path, Event event);

        /** The kernel's event queue overflowed: events were lost, every file must be looked at. */
        void overflow();
    }

    /** Thrown by {@link #watch} when {@code fs.inotify.max_user_watches} is reached. */
    public static final class WatchesExhausted extends Exception {
        WatchesExhausted(String message) {
            super(message, null, false, false);
        }
    }

    static final int MASK = Inotify.IN_CLOSE_WRITE | Inotify.IN_MODIFY | Inotify.IN_ATTRIB | Inotify.IN_DELETE_SELF
            | Inotify.IN_MOVE_SELF;

    private static final Logger LOG = Logger.getLogger(FileWatcher.class);

    private final int inotify;
    private final int wakeup;
    private final Listener listener;
    private final Map<Integer, Set<Path>> pathsByWatch = new ConcurrentHashMap<>();
    private final Map<Path, Integer> watchByPath = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean closed;

    private FileWatcher(int inotify, int wakeup, Listener listener) {
        this.inotify = inotify;
        this.wakeup = wakeup;
        this.listener = listener;
        this.thread = new Thread(this::run, "dra-metadata-inotify");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** The result of {@link #open}: the watcher, or why there is none. */
    public record Opened(FileWatcher watcher, String unavailableReason) {}

    /** A running watcher that tells {@code listener}, or why inotify cannot be had here (then files are polled). */
    public static Opened open(Listener listener) {
        if (!Inotify.available()) {
            return new Opened(null, Inotify.unavailableReason());
        }
        int inotify;
        try {
            inotify = Inotify.inotify_init1(Inotify.IN_NONBLOCK | Inotify.IN_CLOEXEC);
        } catch (LastErrorException e) {
            return new Opened(null, "inotify_init1 failed: " + Inotify.describe(e.getErrorCode()));
        }
        int wakeup;
        try {
            wakeup = Inotify.eventfd(0, Inotify.EFD_NONBLOCK | Inotify.EFD_CLOEXEC);
        } catch (LastErrorException e) {
            closeQuietly(inotify);
            return new Opened(null, "eventfd failed: " + Inotify.describe(e.getErrorCode()));
        }
        return new Opened(new FileWatcher(inotify, wakeup, listener), null);
    }

    /**
     * Watches the file {@code real} leads to, on behalf of {@code path} (events name {@code path}). Calling it
     * again after the path was replaced by another file moves the path to the new file's watch.
     *
     * @return whether a watch is in place; {@code false} when the file vanished or may not be watched
     * @throws WatchesExhausted when the user's inotify watch limit is reached
     */
    public boolean watch(Path path, Path real) throws WatchesExhausted {
        int wd;
        try {
            wd = Inotify.inotify_add_watch(inotify, real.toString(), MASK);
        } catch (LastErrorException e) {
            if (e.getErrorCode() == Inotify.ENOSPC) {
                throw new WatchesExhausted("inotify_add_watch " + real + ": " + Inotify.describe(Inotify.ENOSPC)
                        + " with " + count() + " file watches of this sidecar in use");
            }
            LOG.debugf("%s: no watch: %s", path, Inotify.describe(e.getErrorCode()));
            unwatch(path);
            return false;
        }
        pathsByWatch.merge(wd, Set.of(path), FileWatcher::union);
        Integer previous = watchByPath.put(path, wd);
        if (previous != null && previous != wd) {
            release(previous, path);
        }
        return true;
    }

    /** Stops watching for {@code path}; the kernel's watch goes when no other path uses it. */
    public void unwatch(Path path) {
        Integer wd = watchByPath.remove(path);
        if (wd != null) {
            release(wd, path);
        }
    }

    /** Whether {@code path} has a watch now (the kernel may have dropped it since: an event then says so). */
    public boolean watching(Path path) {
        return watchByPath.containsKey(path);
    }

    /** Kernel watches in use: files, not paths. */
    public int count() {
        return pathsByWatch.size();
    }

    private void release(int wd, Path path) {
        boolean[] last = new boolean[1];
        pathsByWatch.computeIfPresent(wd, (k, paths) -> {
            Set<Path> rest = without(paths, path);
            last[0] = rest == null && paths.contains(path);
            return rest;
        });
        if (last[0]) {
            try {
                Inotify.inotify_rm_watch(inotify, wd);
            } catch (LastErrorException e) {
                // The kernel dropped it already (the file went); its IN_IGNORED is on the way.
            }
        }
    }

    /** Both sets, as an immutable set: a watch's paths are replaced, never changed, so readers need no lock. */
    private static Set<Path> union(Set<Path> a, Set<Path> b) {
        Set<Path> all = new HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }

    /** {@code paths} without {@code path}, {@code null} when none is left (the watch then goes). */
    private static Set<Path> without(Set<Path> paths, Path path) {
        if (!paths.contains(path)) {
            return paths;
        }
        Set<Path> rest = new HashSet<>(paths);
        rest.remove(path);
        return rest.isEmpty() ? null : Set.copyOf(rest);
    }

    private void run() {
        byte[] pollFds = new byte[16];
        ByteBuffer fds = ByteBuffer.wrap(pollFds).order(ByteOrder.nativeOrder());
        fds.putInt(0, inotify).putShort(4, Inotify.POLLIN).putInt(8, wakeup).putShort(12, Inotify.POLLIN);
        // 256 events of a file watch (16 bytes each, no name) per read; more wait for the next read.
        byte[] buffer = new byte[4096];
        ByteBuffer events = ByteBuffer.wrap(buffer).order(ByteOrder.nativeOrder());
        NativeLong two = new NativeLong(2);
        NativeLong capacity = new NativeLong(buffer.length);
        try {
            while (!closed) {
                try {
                    Inotify.poll(pollFds, two, -1);
                } catch (LastErrorException e) {
                    if (e.getErrorCode() == Inotify.EINTR) {
                        continue;
                    }
                    throw e;
                }
                if (closed) {
                    return;
                }
                while (true) {
                    long n;
                    try {
                        n = Inotify.read(inotify, buffer, capacity).longValue();
                    } catch (LastErrorException e) {
                        if (e.getErrorCode() == Inotify.EAGAIN) {
                            break;
                        }
                        if (e.getErrorCode() == Inotify.EINTR) {
                            continue;
                        }
                        throw e;
                    }
                    dispatch(events, (int) n);
                }
            }
        } catch (RuntimeException e) {
            if (!closed) {
                // Without this thread changes still arrive, by the safety poll; say so once.
                LOG.errorf(e, "File notifications stopped; changes are now seen by the fingerprint poll only");
                listener.overflow();
            }
        }
    }

    private void dispatch(ByteBuffer events, int length) {
        int at = 0;
        while (at + Inotify.EVENT_HEADER_BYTES <= length) {
            int wd = events.getInt(at);
            int mask = events.getInt(at + 4);
            int nameLength = events.getInt(at + 12);
            at += Inotify.EVENT_HEADER_BYTES + nameLength;
            if ((mask & Inotify.IN_Q_OVERFLOW) != 0) {
                listener.overflow();
                continue;
            }
            Set<Path> paths = (mask & Inotify.IN_IGNORED) != 0 ? forget(wd) : pathsByWatch.get(wd);
            if (paths == null) {
                continue;
            }
            Event event = (mask & Inotify.IN_CLOSE_WRITE) != 0 ? Event.WRITTEN
                    : (mask & Inotify.IN_MODIFY) != 0 ? Event.MODIFIED : Event.CHANGED;
            for (Path path : paths) {
                listener.fileEvent(path, event);
            }
        }
    }

    /** The kernel dropped the watch (file deleted, unmounted, or removed by us): forget it, say which paths had it. */
    private Set<Path> forget(int wd) {
        Set<Path> paths = pathsByWatch.remove(wd);
        if (paths != null) {
            for (Path path : paths) {
                watchByPath.remove(path, wd);
            }
        }
        return paths;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Inotify.write(wakeup, new byte[] {1, 0, 0, 0, 0, 0, 0, 0}, new NativeLong(8));
        } catch (LastErrorException e) {
            // Cannot happen for a fresh eventfd; the thread is a daemon either way.
        }
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!thread.isAlive()) {
            closeQuietly(inotify);
            closeQuietly(wakeup);
        }
    }

    private static void closeQuietly(int fd) {
        try {
            Inotify.close(fd);
        } catch (LastErrorException e) {
            // nothing left to release
        }
    }
}
