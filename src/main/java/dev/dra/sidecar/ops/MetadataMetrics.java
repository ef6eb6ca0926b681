package dev.dra.sidecar.ops;

import dev.dra.sidecar.decode.FailureCode;
import dev.dra.sidecar.snapshot.ClaimEntry;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.DeviceEntry;
import dev.dra.sidecar.snapshot.DriverEntry;
import dev.dra.sidecar.snapshot.FileState;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.RequestEntry;
import dev.dra.sidecar.store.refresh.RefreshObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The store's metrics, fed by the refresh thread through {@link RefreshObserver}: everything is computed when a
 * snapshot is published (a few times a day in a pod), nothing on the API's request path. Names as Prometheus
 * shows them:
 *
 * <ul>
 *   <li>{@code dra_refresh_cycles_total} (counter) and {@code dra_refresh_cycle_duration_seconds} (timer):
 *       completed refresh cycles and how long each took.
 *   <li>{@code dra_files{state="ok|stale|detached|failed"}} (gauge): metadata files by what is served from them.
 *   <li>{@code dra_decode_failures_total{code}} (counter): failed reads by contract code; every code is
 *       present from the start, at 0. A file met while being written (empty or cut short within the settle window,
 *       read again once it settles) is not counted: only failures that readers can see as stale or failed.
 *   <li>{@code dra_validation_violations{driver}} (gauge): upstream validation rules broken by the objects served
 *       now, per driver.
 *   <li>{@code dra_last_change_timestamp_seconds} (gauge): Unix time of the last published change.
 *   <li>{@code dra_device_info{claim_kind,claim,request,driver,pool,device,attr_...}} = 1 (gauge): one series per
 *       device served, up to {@code dra.metrics.device-info-max-series}; series of vanished devices are removed.
 * </ul>
 *
 * <p>This bean must not depend on the store: the store calls it during its own creation (the first scan).
 */
@Singleton
public class MetadataMetrics implements RefreshObserver {

    private final MeterRegistry registry;
    private final DeviceInfoLabels deviceLabels;
    private final Counter cycles;
    private final Timer cycleDuration;
    private final Map<FailureCode, Counter> failures = new EnumMap<>(FailureCode.class);
    private final Map<FileState, AtomicLong> files = new EnumMap<>(FileState.class);
    private final AtomicLong lastChangeMillis = new AtomicLong();
    private final MultiGauge violations;
    private final MultiGauge devices;
    private final int maxDeviceSeries;

    MetadataMetrics(MeterRegistry registry, MetricsConfig config) {
        this.registry = registry;
        this.deviceLabels = new DeviceInfoLabels(config.deviceInfoAttributes());
        this.maxDeviceSeries = config.deviceInfoMaxSeries();
        this.cycles = Counter.builder("dra.refresh.cycles").description("Refresh cycles completed").register(registry);
        this.cycleDuration = Timer.builder("dra.refresh.cycle.duration")
                .description("Duration of a refresh cycle (poll fingerprints, read changed files, publish)")
                .register(registry);
        for (FailureCode code : FailureCode.values()) {
            failures.put(code, Counter.builder("dra.decode.failures").tag("code", code.code())
                    .description("Metadata file reads that failed, by contract code").register(registry));
        }
        for (FileState state : FileState.values()) {
            AtomicLong count = new AtomicLong();
            files.put(state, count);
            Gauge.builder("dra.files", count, AtomicLong::get).tag("state", state.label()).strongReference(true)
                    .description("Metadata files by state: ok, stale (serving the last good object), detached "
                            + "(pinned to a file the host replaced; serving its last object), failed")
                    .register(registry);
        }
        Gauge.builder("dra.last.change.timestamp", lastChangeMillis, millis -> millis.get() / 1000.0)
                .baseUnit("seconds").strongReference(true)
                .description("Unix time when the served metadata last changed").register(registry);
        this.violations = MultiGauge.builder("dra.validation.violations")
                .description("Upstream validation rules broken by the served objects, per driver").register(registry);
        this.devices = MultiGauge.builder("dra.device.info")
                .description("One series per served device, value 1; labels identify it for joins").register(registry);
    }

    @Override
    public void cycleCompleted(long nanos) {
        cycles.increment();
        cycleDuration.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void fileRead(FailureCode failure) {
        if (failure != null) {
            failures.get(failure).increment();
        }
    }

    @Override
    public void published(MetadataSnapshot snapshot) {
        Map<FileState, Long> counts = new EnumMap<>(FileState.class);
        Map<String, Integer> violationsByDriver = new TreeMap<>();
        // Two devices share all labels only if a driver listed one device twice: one series for both.
        Set<Tags> deviceTags = new LinkedHashSet<>();
        for (ClaimKind kind : ClaimKind.values()) {
            for (ClaimEntry claim : snapshot.claims(kind).claims().values()) {
                for (RequestEntry request : claim.requests().values()) {
                    for (DriverEntry driver : request.drivers().values()) {
                        counts.merge(driver.state(), 1L, Long::sum);
                        if (driver.violations() != null) {
                            violationsByDriver.merge(driver.driver(), driver.violations().size(), Integer::sum);
                        }
                    }
                    for (DeviceEntry device : request.devices()) {
                        if (deviceTags.size() < maxDeviceSeries) {
                            deviceTags.add(deviceLabels.of(kind, claim.name(), request.name(), device));
                        }
                    }
                }
            }
        }
        files.forEach((state, count) -> count.set(counts.getOrDefault(state, 0L)));
        List<MultiGauge.Row<?>> violationRows = new ArrayList<>();
        violationsByDriver.forEach((driver, count) -> violationRows.add(MultiGauge.Row.of(Tags.of("driver", driver), count)));
        violations.register(violationRows, true);
        List<MultiGauge.Row<?>> deviceRows = new ArrayList<>();
        deviceTags.forEach(tags -> deviceRows.add(MultiGauge.Row.of(tags, 1)));
        devices.register(deviceRows, true);
        lastChangeMillis.set(System.currentTimeMillis());
    }
}
