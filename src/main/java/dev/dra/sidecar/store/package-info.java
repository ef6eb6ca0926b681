/**
 * Finds, reads, refreshes and caches every metadata file under the root, the way the files really arrive
 * in a pod: read-only single-file bind mounts rewritten in place, where directory watches see nothing and a
 * read may catch a half-written file. One refresh loop polls fingerprints (the source of truth), wakes early
 * on {@link java.nio.file.WatchService} events (a hint), and publishes an immutable
 * {@link dev.dra.sidecar.snapshot.MetadataSnapshot} only when decoded content changed.
 */
package dev.dra.sidecar.store;
