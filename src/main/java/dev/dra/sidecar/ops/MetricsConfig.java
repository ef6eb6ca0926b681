package dev.dra.sidecar.ops;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;

/** Settings of the metrics, under {@code dra.metrics} (env {@code DRA_METRICS_*}). */
@ConfigMapping(prefix = "dra.metrics")
public interface MetricsConfig {

    /**
     * Device attributes copied into labels of {@code dra_device_info}, so dashboards can join a device with
     * DCGM or node metrics (by UUID or PCI address). Each becomes the label {@code attr_<name>} with every
     * character outside {@code [a-zA-Z0-9_]} replaced by {@code _}; a device without the attribute gets an
     * empty value. Keep this list short: every label multiplies nothing, but every value is stored per device.
     */
    @WithDefault("uuid,resource.kubernetes.io/pciBusID")
    List<String> deviceInfoAttributes();

    /**
     * At most this many {@code dra_device_info} series, the first devices in claim and request order: every series
     * holds its labels in memory, and a tree of thousands of devices would spend more on them than on the metadata.
     */
    @WithDefault("256")
    int deviceInfoMaxSeries();
}
