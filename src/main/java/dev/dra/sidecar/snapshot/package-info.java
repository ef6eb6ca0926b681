/**
 * The immutable snapshot of everything the sidecar serves, built once per change by the store and read
 * without locks by the HTTP layer. Every representation is pre-encoded: serving a request is a map lookup
 * and a write of ready bytes.
 */
package dev.dra.sidecar.snapshot;
