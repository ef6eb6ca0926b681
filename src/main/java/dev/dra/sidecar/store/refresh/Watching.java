package dev.dra.sidecar.store.refresh;

import dev.dra.sidecar.store.config.StoreConfig;
import dev.dra.sidecar.store.config.StoreLog;
import dev.dra.sidecar.store.file.TrackedFile;
import dev.dra.sidecar.store.watch.DirectoryWatcher;
import dev.dra.sidecar.store.watch.FileWatcher;
import dev.dra.sidecar.store.watch.WatchMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * The refresh loop's file notifications: the watcher of the tree's directories, the watcher of each file, and, while
 * files have no watch, why they are polled instead. Set up, kept and given up by the refresh thread only; the
 * directory watcher's thread asks only whether file watches are on.
 */
final class Watching implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(StoreLog.CATEGORY);

    private final StoreConfig config;
    private DirectoryWatcher directoryWatcher;
    /** Set and cleared by the refresh thread; read by the directory watcher's thread. */
    private volatile FileWatcher fileWatcher;
    private String pollingReason;

    Watching(StoreConfig config) {
        this.config = config;
    }

    /** Before the first scan: files are polled until {@link #start} set the watches up, or for good if they are off. */
    void starting() {
        if (config.watch()) {
            pollingReason = "starting: file notifications are being set up";
        } else {
            pollingReason = "file notifications are off (dra.metadata.watch=false)";
            LOG.infof("Polling every file every %d ms: %s", config.pollInterval().toMillis(), pollingReason);
        }
    }

    /**
     * Sets the watches up, reporting to {@code requests}; says why files are polled if they get no watches.
     *
     * @param walkReads whether the walk reads the files of a directory (then a change of one asks for a walk)
     */
    void start(RefreshRequests requests, Predicate<Path> walkReads) {
        directoryWatcher = DirectoryWatcher.start(requests.directoryListener(() -> fileWatcher != null, walkReads));
        FileWatcher.Opened opened = FileWatcher.open(requests.fileListener());
        fileWatcher = opened.watcher();
        pollingReason = null;
        if (fileWatcher == null) {
            pollingReason = opened.unavailableReason();
            LOG.warnf("File notifications unavailable, polling every file every %d ms instead: %s",
                    config.pollInterval().toMillis(), pollingReason);
        }
    }

    /** The safety nets' spacing in the watch mode in use. */
    RefreshSchedule.Mode mode() {
        return RefreshSchedule.Mode.of(config, fileWatcher != null,
                directoryWatcher != null && directoryWatcher.complete());
    }

    /**
     * Watches exactly {@code directories} (when directories are watched at all).
     *
     * @return whether a directory was newly watched: what was created in it before then raised no event
     */
    boolean watchExactly(List<Path> directories) {
        return directoryWatcher != null && directoryWatcher.watchExactly(directories);
    }

    /** {@code path} is no longer tracked: its file watch goes. */
    void unwatch(Path path) {
        if (fileWatcher != null) {
            fileWatcher.unwatch(path);
        }
    }

    /**
     * Keeps the file's watch on the file its path leads to now ({@code real}, or the path itself).
     *
     * @return {@code false} when file watches were given up just now, the kernel having no more: from now on every
     *     file is polled at the short interval, and no file has a watch
     */
    boolean keep(TrackedFile file, Path real, Object fileKey) {
        if (fileWatcher == null
                || (Objects.equals(fileKey, file.watchedKey()) && fileWatcher.watching(file.ref().path()))) {
            return true;
        }
        try {
            Path path = file.ref().path();
            file.watchedKey(fileWatcher.watch(path, real == null ? path : real) ? fileKey : null);
            return true;
        } catch (FileWatcher.WatchesExhausted e) { // the directory watches count against the same limit
            giveUpFileWatches(e.getMessage() + " and " + (directoryWatcher == null ? 0 : directoryWatcher.count())
                    + " directory watches");
            return false;
        }
    }

    private void giveUpFileWatches(String reason) {
        pollingReason = reason;
        LOG.warnf("File notifications given up, polling every file every %d ms instead: %s. Raise "
                + "fs.inotify.max_user_watches on the node to get them back (takes a restart of the sidecar).",
                config.pollInterval().toMillis(), reason);
        fileWatcher.close();
        fileWatcher = null;
    }

    /** What the loop is doing now, with the watches as they are. */
    StoreStatus status(boolean rootExists, long lastCycleNanos, long cycles) {
        return new StoreStatus(rootExists, fileWatcher != null ? WatchMode.INOTIFY : WatchMode.POLLING,
                pollingReason, fileWatcher == null ? 0 : fileWatcher.count(),
                directoryWatcher == null ? 0 : directoryWatcher.count(), lastCycleNanos, cycles);
    }

    @Override
    public void close() {
        if (directoryWatcher != null) {
            directoryWatcher.close();
        }
        if (fileWatcher != null) {
            fileWatcher.close();
        }
    }
}
