/**
 * Finds, reads, refreshes and caches every metadata file under the root, the way the files really arrive in a pod:
 * read-only single-file bind mounts rewritten in place, where directory watches see nothing and a read may catch a
 * half-written file. This room is the face readers use ({@link dev.dra.sidecar.store.MetadataStore}) and its start;
 * the rooms under it, each depending only on those further down:
 * <ul>
 *   <li>{@code refresh}: the one refresh loop that schedules the reads and publishes each snapshot;
 *   <li>{@code watch}: inotify watches on each file and each directory, hints that wake the loop early;
 *   <li>{@code file}: each tracked file's state, the look that reads it, and the memory bound;
 *   <li>{@code source}: where the files are found, the container's tree or a node's CDI specs;
 *   <li>{@code assembly}: the immutable snapshot, built from what each driver serves;
 *   <li>{@code config}: the settings and the log category every room shares.
 * </ul>
 */
package dev.dra.sidecar.store;
