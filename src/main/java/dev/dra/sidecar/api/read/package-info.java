/**
 * How a read is answered, on both paths: what a path names in a snapshot
 * ({@link dev.dra.sidecar.api.read.SnapshotLookup}), the answer with its ETag and conditional headers
 * ({@link dev.dra.sidecar.api.read.ConditionalResponses}, {@link dev.dra.sidecar.api.read.Conditions}), plain reads
 * straight from the event loop ({@link dev.dra.sidecar.api.read.FastReadHandler}), and every read of the resources, at
 * once or after a long poll ({@link dev.dra.sidecar.api.read.ReadResponder}).
 */
package dev.dra.sidecar.api.read;
