package dev.dra.sidecar.ops;

import dev.dra.sidecar.store.MetadataStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;

/**
 * Gauges read from the store at scrape time (cheap field reads), registered once the store exists:
 *
 * <ul>
 *   <li>{@code dra_long_poll_waiters}: long polls waiting for a change now.
 *   <li>{@code dra_watch_mode{mode="inotify|polling"}}: 1 for the mode in use. Inside a pod the files are
 *       bind mounts that inotify does not see; polling is what keeps them current either way.
 *   <li>{@code dra_metadata_root_exists}: 1 when the metadata root was there at the last walk.
 * </ul>
 */
@Singleton
@Startup
public class StoreGauges {

    StoreGauges(MetadataStore store, MeterRegistry registry) {
        Gauge.builder("dra.long.poll.waiters", store, MetadataStore::waiting).strongReference(true)
                .description("Long polls waiting for a change").register(registry);
        Gauge.builder("dra.watch.mode", store, s -> s.status().watching() ? 1 : 0).tag("mode", "inotify")
                .strongReference(true).description("1 for the file watch mode in use").register(registry);
        Gauge.builder("dra.watch.mode", store, s -> s.status().watching() ? 0 : 1).tag("mode", "polling")
                .strongReference(true).description("1 for the file watch mode in use").register(registry);
        Gauge.builder("dra.metadata.root.exists", store, s -> s.status().rootExists() ? 1 : 0).strongReference(true)
                .description("1 when the metadata root exists").register(registry);
    }
}
