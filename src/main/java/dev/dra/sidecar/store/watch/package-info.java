/**
 * How the store hears of changes without looking: an inotify watch on each metadata file itself
 * ({@link dev.dra.sidecar.store.watch.FileWatcher}, through JNA, which sees an in-place rewrite through a single-file
 * bind mount) and on each directory of the tree ({@link dev.dra.sidecar.store.watch.DirectoryWatcher}, which sees
 * files appear and vanish). Both are hints that wake the refresh loop on threads of their own; neither reads a file.
 */
package dev.dra.sidecar.store.watch;
