package dev.dra.sidecar.store;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Settings of the metadata store, under {@code dra.metadata} (env {@code DRA_METADATA_*}). */
@ConfigMapping(prefix = "dra.metadata")
public interface StoreConfig {

    /** The directory the kubelet mounts the files under; the upstream constant {@code ContainerDir}. */
    @WithDefault("/var/run/kubernetes.io/dra-device-attributes")
    Path root();

    /**
     * How often every known file's fingerprint (size, modification time, file key) is checked. This is what
     * notices in-place rewrites inside a pod, where no file event arrives; it bounds the propagation delay.
     */
    @WithDefault("50ms")
    Duration pollInterval();

    /**
     * How often the whole tree is walked for new or removed files when no file event says so. Watch events,
     * a vanished file and a missing root trigger a walk at once.
     */
    @WithDefault("2s")
    Duration rescanInterval();

    /** Whether to watch directories with inotify as a hint; polling alone stays correct without it. */
    @WithDefault("true")
    boolean watch();

    /** Files larger than this are not read past the limit and report {@code file-too-large}. */
    @WithDefault("1M")
    MemorySize maxFileSize();

    /** First delay before re-reading a file whose read failed transiently (empty or cut short). */
    @WithDefault("10ms")
    Duration retryBackoffMin();

    /** The retry delay doubles up to this. */
    @WithDefault("2s")
    Duration retryBackoffMax();

    /**
     * Claims the app needs, as {@code claims/<claim>/<request>} or {@code template-claims/<podClaimName>/<request>};
     * startup and readiness wait until each is present and decodes.
     */
    Optional<List<String>> expectedClaims();
}
