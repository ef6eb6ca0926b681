/**
 * The refresh loop: one thread ({@link dev.dra.sidecar.store.refresh.RefreshLoop}) that walks the source, looks at
 * each file when it is due, and publishes a new snapshot only when what readers would see changed. Here are what
 * wakes it (the watchers' requests, its schedule of safety nets), the watches as it keeps them, what it reports
 * ({@link dev.dra.sidecar.store.refresh.RefreshObserver}) and its status
 * ({@link dev.dra.sidecar.store.refresh.StoreStatus}). It builds on the rooms below it: the sources, the watches,
 * the tracked files and the snapshot building.
 */
package dev.dra.sidecar.store.refresh;
