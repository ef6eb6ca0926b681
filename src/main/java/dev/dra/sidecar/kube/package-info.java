/**
 * The Kubernetes API server, for whatever part of the sidecar needs it: {@link dev.dra.sidecar.kube.KubeApi} makes
 * the calls (GET and POST of JSON, a watch read line by line) with a rotating service account token and a pinned
 * CA. Knows nothing of what the objects mean, nor of the rest of the sidecar.
 */
package dev.dra.sidecar.kube;
