/**
 * Operations: the health checks kubelet probes on the management interface, the Prometheus metrics, and the
 * shutdown that answers long polls. Nothing here runs on the API's request path: metrics are computed when the
 * store publishes a snapshot, and health checks read the snapshot and the store's status.
 */
package dev.dra.sidecar.ops;
