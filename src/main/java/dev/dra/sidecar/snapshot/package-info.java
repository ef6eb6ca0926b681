/**
 * The immutable snapshot of everything the sidecar serves, built once per change by the store and read
 * without locks by the HTTP layer. Every representation is made from immutable objects in one encoding
 * ({@link dev.dra.sidecar.snapshot.BodyEncoding}): held, or encoded when asked for, with the same bytes and ETag.
 */
package dev.dra.sidecar.snapshot;
