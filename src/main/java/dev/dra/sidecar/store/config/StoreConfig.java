package dev.dra.sidecar.store.config;

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

    /** How the service runs, chosen once at start. */
    enum Mode {
        /** In the pod, beside the app: serves the files of its own container's tree ({@link #root()}). */
        SIDECAR,
        /**
         * One agent per node: serves each pod of the node its own claims, from the files the node's CDI specs name
         * ({@link #cdiDir()}).
         */
        NODE
    }

    /** {@code sidecar} or {@code node}. */
    @WithDefault("sidecar")
    Mode mode();

    /** Node mode: the directory of the CDI specs the drivers write, as the container runtime reads them. */
    @WithDefault("/var/run/cdi")
    Path cdiDir();

    /**
     * The directory the kubelet mounts the files under; the upstream constant {@code ContainerDir}. In node mode,
     * where the files appear in the containers: only CDI mounts into this tree count.
     */
    @WithDefault("/var/run/kubernetes.io/dra-device-attributes")
    Path root();

    /**
     * Whether to use inotify: a watch on each metadata file itself (a rewrite is read the moment it is written,
     * also through a single-file bind mount) and on each directory (new and removed files are found at once).
     * When {@code false}, or when notifications cannot be had (the log and {@code dra_watch_mode} say why),
     * every file is polled at {@link #pollInterval()}.
     */
    @WithDefault("true")
    boolean watch();

    /**
     * How often every known file's fingerprint (size, modification time, file key, link count) is checked when
     * file notifications are unavailable: this alone then notices in-place rewrites, and bounds how late one is
     * seen.
     */
    @WithDefault("50ms")
    Duration pollInterval();

    /**
     * How often, while file notifications are on, every known file's fingerprint is checked and the tree walked:
     * the safety net for a change no event reported (a write through a memory mapping, a lost event). Such a change
     * is served at most this long after it (plus the read); while a directory of the tree has no watch (it could not
     * be added), the tree is walked every {@link #rescanInterval()} instead. A tree so large that a check or walk
     * costs more than 0.1 % of a core is checked less often. Each check wakes the sidecar at rest, and nothing else
     * does: a shorter interval narrows that bound at the cost of idle CPU (a wake can cost tens of milliseconds of
     * CPU where the memory of an idle guest is reclaimed by its host).
     */
    @WithDefault("5m")
    Duration safetyPollInterval();

    /**
     * A write that leaves the file open ({@code IN_MODIFY} without {@code IN_CLOSE_WRITE}) is read this long
     * after it; a close after writing is read at once.
     */
    @WithDefault("10ms")
    Duration modifySettle();

    /**
     * How often the whole tree is walked for new or removed files while file notifications are unavailable, or a
     * directory's watch could not be added (otherwise at {@link #safetyPollInterval()}). Directory events, a vanished
     * file and a missing root trigger a walk at once.
     */
    @WithDefault("2s")
    Duration rescanInterval();

    /** Files larger than this are not read past the limit and report {@code file-too-large}. */
    @WithDefault("1M")
    MemorySize maxFileSize();

    /**
     * How much decoded metadata the sidecar may hold, as estimated per file ({@code HeldBudget}); a file past it is
     * not held and answers {@code memory-bound-reached}, the rest is served. Default: a share ({@code
     * HeldBudget.HEAP_SHARE}) of the JVM's maximum heap (in the image, -XX:MaxRAMPercentage of the container's memory
     * limit), so that a tree too large for the pod never ends in OutOfMemoryError.
     */
    Optional<MemorySize> maxHeld();

    /** First delay before re-reading a file whose read failed transiently (empty or cut short). */
    @WithDefault("10ms")
    Duration retryBackoffMin();

    /** The retry delay doubles up to this. */
    @WithDefault("2s")
    Duration retryBackoffMax();

    /**
     * Claims the app needs, as {@code claims/<claim>/<request>} or {@code template-claims/<podClaimName>/<request>},
     * or without {@code /<request>} for the whole claim; startup and readiness wait until each is present and decodes.
     */
    Optional<List<String>> expectedClaims();
}
