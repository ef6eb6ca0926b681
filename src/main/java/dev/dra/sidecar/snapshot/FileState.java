package dev.dra.sidecar.snapshot;

import java.util.Locale;

/** What is served from one metadata file. */
public enum FileState {
    /** The latest read decoded; its object is served. */
    OK,
    /** The latest read failed; the last object that decoded is served, with the reason. */
    STALE,
    /**
     * The file was replaced on the host (renamed over), and the container's bind mount still shows the old,
     * deleted file: its last object is served, and no later change can arrive until the pod restarts.
     */
    DETACHED,
    /** No read has decoded yet; the failure is served. */
    FAILED;

    /** The name used in metric labels and health data: {@code ok}, {@code stale}, {@code detached}, {@code failed}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
