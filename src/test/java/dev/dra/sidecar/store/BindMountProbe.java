package dev.dra.sidecar.store;

import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.store.refresh.RefreshObserver;
import dev.dra.sidecar.store.refresh.StoreStatus;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs the store in a child JVM, in the namespace a test made: where the metadata file is a read-only single-file
 * bind mount as a container sees it ({@link BindMountTest}), or where inotify is limited ({@link WatchFallbackTest}).
 * Prints one line per fact, flushed: {@code ro <what opening the file for writing did>}, {@code mode inotify} or
 * {@code mode polling: <why>}, then one line per published snapshot: {@code gen <generation> <ok|stale|detached>},
 * {@code unavailable <code>} or {@code missing}.
 * Exits on its own after a minute, so that a test that dies cannot leave it behind.
 *
 * <p>Arguments: the metadata root, the bind-mounted file ({@code <root>/resourceclaims/c/r/d-metadata.json}),
 * the value of {@code dra.metadata.watch}.
 */
public final class BindMountProbe {

    private BindMountProbe() {}

    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        Path root = Path.of(args[0]);
        Path file = Path.of(args[1]);
        out.println("ro " + tryToWrite(file));
        out.flush();
        long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        WatchService watch = FileSystems.getDefault().newWatchService();
        file.getParent().register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE,
                StandardWatchEventKinds.ENTRY_MODIFY);
        Thread events = new Thread(() -> {
            try {
                while (true) {
                    WatchKey key = watch.take();
                    for (WatchEvent<?> event : key.pollEvents()) {
                        synchronized (out) {
                            out.println("event " + event.kind().name() + " " + event.context());
                            out.flush();
                        }
                    }
                    key.reset();
                }
            } catch (InterruptedException | ClosedWatchServiceException e) {
                // done
            }
        }, "probe-watch");
        events.setDaemon(true);
        events.start();
        try (MetadataStore store = new MetadataStore(TestStoreConfig.of(root, "watch", args[2]), RefreshObserver.NONE)) {
            store.start();
            // File notifications are set up by the refresh thread, just after the first scan.
            while (store.status().pollingReason() != null && store.status().pollingReason().startsWith("starting")) {
                Thread.sleep(5);
            }
            StoreStatus status = store.status();
            out.println("mode " + status.watchMode().label()
                    + (status.pollingReason() == null ? "" : ": " + status.pollingReason()));
            out.flush();
            long sequence = 0;
            while (System.nanoTime() - end < 0) {
                MetadataSnapshot snapshot;
                try {
                    snapshot = StoreChanges.after(store, sequence).get(1, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    continue;
                }
                sequence = snapshot.sequence();
                synchronized (out) {
                    out.println(describe(snapshot));
                    out.flush();
                }
            }
        }
        System.exit(0);
    }

    private static String tryToWrite(Path file) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            return "writable";
        } catch (FileSystemException e) {
            return e.getClass().getSimpleName() + ": " + e.getReason();
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static String describe(MetadataSnapshot snapshot) {
        var driver = StoreFiles.driver(snapshot, ClaimKind.CLAIM, "c", "r", "d");
        if (driver == null) {
            return "missing";
        }
        if (driver.served() instanceof dev.dra.sidecar.snapshot.Served.Available available) {
            return "gen " + StoreFiles.body(available).path("metadata").path("generation").asLong() + " "
                    + driver.state().label();
        }
        return "unavailable " + ((dev.dra.sidecar.snapshot.Served.Unavailable) driver.served()).code().code();
    }
}
