package dev.dra.sidecar.ops;

import dev.dra.sidecar.store.MetadataStore;
import dev.dra.sidecar.store.watch.WatchMode;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;

/**
 * Gauges read from the store at scrape time (cheap field reads), registered once the store exists:
 *
 * <ul>
 *   <li>{@code dra_long_poll_waiters}: long polls waiting for a change now.
 *   <li>{@code dra_watch_mode{mode="inotify|polling"}}: 1 for the mode in use: {@code inotify}, a watch on each
 *       file (changes are read as they are written); {@code polling}, every file polled at the short interval
 *       (notifications off or unavailable; the log says why).
 *   <li>{@code dra_inotify_watches{kind="file|directory"}}: inotify watches in use, which count against the
 *       node's {@code fs.inotify.max_user_watches}.
 *   <li>{@code dra_metadata_root_exists}: 1 when the metadata root was there at the last walk.
 * </ul>
 */
@Singleton
@Startup
public class StoreGauges {

    StoreGauges(MetadataStore store, MeterRegistry registry) {
        Gauge.builder("dra.long.poll.waiters", store, MetadataStore::waiting).strongReference(true)
                .description("Long polls waiting for a change").register(registry);
        for (WatchMode mode : WatchMode.values()) {
            Gauge.builder("dra.watch.mode", store, s -> s.status().watchMode() == mode ? 1 : 0)
                    .tag("mode", mode.label()).strongReference(true)
                    .description("1 for the way file changes are noticed now").register(registry);
        }
        Gauge.builder("dra.inotify.watches", store, s -> s.status().fileWatches()).tag("kind", "file")
                .strongReference(true).description("inotify watches in use").register(registry);
        Gauge.builder("dra.inotify.watches", store, s -> s.status().directoryWatches()).tag("kind", "directory")
                .strongReference(true).description("inotify watches in use").register(registry);
        Gauge.builder("dra.metadata.root.exists", store, s -> s.status().rootExists() ? 1 : 0).strongReference(true)
                .description("1 when the metadata root exists").register(registry);
    }
}
