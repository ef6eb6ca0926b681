/**
 * Where what the sources serve meets the snapshot: {@link dev.dra.sidecar.store.assembly.SnapshotBuilder} builds the
 * immutable snapshot, and in node mode {@link dev.dra.sidecar.store.assembly.ClaimScopes} one per claim, from one
 * {@link dev.dra.sidecar.store.assembly.DriverInput} per driver of a request, whatever source it came from. Nothing
 * here knows how the metadata was found, read or watched.
 */
package dev.dra.sidecar.store.assembly;
