/**
 * Finds, reads, refreshes and caches every metadata file under the root, the way the files really arrive
 * in a pod: read-only single-file bind mounts rewritten in place, where directory watches see nothing and a
 * read may catch a half-written file. An inotify watch on each file itself ({@link dev.dra.sidecar.store.FileWatcher},
 * through JNA) has a change read as it is written; directory watches find new and removed files; a fingerprint
 * poll is the safety net, slow while notifications work and fast when they cannot be had. One refresh loop
 * schedules the reads, each {@link dev.dra.sidecar.store.TrackedFile} owns its state (fresh, stale, detached,
 * failed), and an immutable {@link dev.dra.sidecar.snapshot.MetadataSnapshot} is published only when what
 * readers see changed.
 */
package dev.dra.sidecar.store;
