package dev.dra.sidecar.store.watch;

import java.util.Locale;

/** How the store learns of changes to the files it knows. */
public enum WatchMode {
    /** An inotify watch on each file: a change is read when it is written; a slow fingerprint poll is the safety net. */
    INOTIFY,
    /** No file notifications (disabled, or unavailable here): every file's fingerprint is polled at a short interval. */
    POLLING;

    /** The label value of {@code dra_watch_mode{mode=...}}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
