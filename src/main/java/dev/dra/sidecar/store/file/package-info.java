/**
 * The refresh loop's memory of each file and the one look that reads it: a
 * {@link dev.dra.sidecar.store.file.TrackedFile} owns a file's state (fresh, stale, detached, failed) and the rules
 * between them; {@link dev.dra.sidecar.store.file.FileLook} stats a file and reads it only when it changed, so that
 * no torn read reaches that state; {@link dev.dra.sidecar.store.file.HeldBudget} bounds the memory what is held
 * takes. Everything here runs on the refresh thread; what readers see leaves only as a
 * {@link dev.dra.sidecar.store.assembly.DriverInput}.
 */
package dev.dra.sidecar.store.file;
