package dev.dra.sidecar.store;

import static dev.dra.sidecar.store.StoreFiles.generation;
import static dev.dra.sidecar.testsupport.Eventually.awaitTrue;

import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.store.config.StoreConfig;
import dev.dra.sidecar.store.refresh.RefreshObserver;
import dev.dra.sidecar.store.watch.WatchMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The store on real files, as {@code MetadataStoreFilesTest} and {@code MetadataStoreBoundariesTest} run it: started
 * with file notifications on or off as configured, and every change awaited within a bound, the slowest
 * propagation per kind of change kept for a report.
 */
final class StoreOnFiles {

    /**
     * How long a change may take before the test fails: a deadline for the event, not a speed claim (a loaded CI
     * machine may take seconds to schedule the refresh thread). Speed is in the bench; what finds a change is shown
     * by the settings a test runs with (see {@link #watchOnly}).
     */
    static final Duration BOUND = Duration.ofSeconds(60);

    private static final Map<String, Duration> SLOWEST = new ConcurrentHashMap<>();

    private StoreOnFiles() {}

    static void printPropagation() {
        System.out.println("[store] slowest propagation per change: " + new TreeMap<>(SLOWEST).entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue().toMillis() + "ms").collect(Collectors.joining(", ")));
    }

    static MetadataStore start(StoreConfig settings) {
        return start(settings, RefreshObserver.NONE);
    }

    static MetadataStore start(StoreConfig settings, RefreshObserver observer) {
        MetadataStore store = new MetadataStore(settings, observer);
        store.start();
        // File notifications are set up by the refresh thread, just after the first scan.
        awaitTrue(BOUND, "file notifications as configured", () -> store.status().watchMode()
                == (settings.watch() ? WatchMode.INOTIFY : WatchMode.POLLING) && store.status().cycles() > 1);
        return store;
    }

    /**
     * The settings under which only file notifications can find a new file when {@code watch} is on: the safety
     * net's walk (every {@code safety-poll-interval}) is pushed past any test's deadline, so a create seen at all
     * was seen through the watch on its directory (or the walk right after registering it).
     */
    static StoreConfig watchOnly(Path root, boolean watch) {
        return watch ? TestStoreConfig.of(root, "watch", "true", "safety-poll-interval", "1h")
                : TestStoreConfig.of(root, "watch", "false");
    }

    static void visible(String change, boolean watch, MetadataStore store, Supplier<Boolean> condition) {
        Duration took = awaitTrue(BOUND, change, condition::get);
        SLOWEST.merge(change + (watch ? "[watch]" : "[poll]"), took, (a, b) -> a.compareTo(b) >= 0 ? a : b);
    }

    static Long gen(MetadataStore store, ClaimKind kind, String claim, String request, String driver) {
        return generation(store.current(), kind, claim, request, driver);
    }
}
