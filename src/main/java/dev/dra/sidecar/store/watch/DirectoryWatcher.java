package dev.dra.sidecar.store.watch;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * A hint, never the truth: inotify watches on every directory of the tree wake the refresh loop early when
 * something changes. Inside a pod the files are single-file bind mounts and these watches see nothing, so
 * the loop's polling must stay correct without them; on hostPath or emptyDir trees (and in dev mode) they
 * make changes visible at once.
 */
public final class DirectoryWatcher implements AutoCloseable {

    /** What the loop is told. */
    public interface Listener {
        /** A file of {@code directory} changed in place. */
        void contentChanged(Path directory);

        /** Entries appeared or vanished, or events were lost: the tree must be walked again. */
        void treeChanged();
    }

    private static final Logger LOG = Logger.getLogger(DirectoryWatcher.class);

    private final WatchService service;
    private final Listener listener;
    private final Map<Path, WatchKey> keys = new HashMap<>();
    private final Thread thread;
    private boolean complete = true;

    private DirectoryWatcher(WatchService service, Listener listener) {
        this.service = service;
        this.listener = listener;
        this.thread = new Thread(this::run, "dra-metadata-watch");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** A running watcher, or {@code null} when inotify cannot be had (then the loop polls alone). */
    public static DirectoryWatcher start(Listener listener) {
        try {
            return new DirectoryWatcher(FileSystems.getDefault().newWatchService(), listener);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.infof("File events unavailable (%s); polling alone", e.getMessage());
            return null;
        }
    }

    /**
     * Watches exactly {@code directories}: new ones are registered, vanished ones dropped. Refresh thread only.
     *
     * @return whether a directory was newly registered: what was created in it before then raised no event
     */
    public boolean watchExactly(List<Path> directories) {
        Set<Path> wanted = new HashSet<>(directories);
        keys.entrySet().removeIf(e -> {
            if (wanted.contains(e.getKey()) && e.getValue().isValid()) {
                return false;
            }
            e.getValue().cancel();
            return true;
        });
        boolean added = false;
        complete = true;
        for (Path dir : directories) {
            if (!keys.containsKey(dir)) {
                try {
                    keys.put(dir, dir.register(service, StandardWatchEventKinds.ENTRY_CREATE,
                            StandardWatchEventKinds.ENTRY_DELETE, StandardWatchEventKinds.ENTRY_MODIFY));
                    added = true;
                } catch (IOException | RuntimeException e) {
                    // Gone already, or out of inotify watches: the walk at the rescan interval covers it.
                    complete = false;
                }
            }
        }
        return added;
    }

    /**
     * Whether the last {@link #watchExactly} watches every directory it was given: only then may the walk wait for
     * the safety poll. Refresh thread only.
     */
    public boolean complete() {
        return complete;
    }

    /** Directories watched now. */
    public int count() {
        return keys.size();
    }

    private void run() {
        try {
            while (true) {
                WatchKey key = service.take();
                boolean tree = false;
                for (WatchEvent<?> event : key.pollEvents()) {
                    tree |= event.kind() != StandardWatchEventKinds.ENTRY_MODIFY;
                }
                tree |= !key.reset();
                if (tree) {
                    listener.treeChanged();
                } else {
                    listener.contentChanged((Path) key.watchable());
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closed
        }
    }

    @Override
    public void close() {
        try {
            service.close();
        } catch (IOException e) {
            // nothing left to release
        }
        thread.interrupt();
    }
}
