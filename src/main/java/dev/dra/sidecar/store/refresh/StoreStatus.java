package dev.dra.sidecar.store.refresh;

import dev.dra.sidecar.store.watch.WatchMode;

/**
 * What the store is doing now, for health checks and metrics.
 *
 * @param rootExists whether the metadata root was there at the last walk
 * @param watchMode how changes to known files are noticed now
 * @param pollingReason why {@link WatchMode#POLLING}, {@code null} with {@link WatchMode#INOTIFY}
 * @param fileWatches inotify watches on files in use
 * @param directoryWatches inotify watches on directories in use
 * @param lastCycleNanos {@link System#nanoTime()} when the last refresh cycle completed
 * @param cycles refresh cycles completed
 */
public record StoreStatus(boolean rootExists, WatchMode watchMode, String pollingReason, int fileWatches,
        int directoryWatches, long lastCycleNanos, long cycles) {}
