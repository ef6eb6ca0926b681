/**
 * The Kubernetes API server, for whatever part of the sidecar needs it: {@link dev.dra.sidecar.kube.KubeApi} makes
 * the calls (GET and POST of JSON, a watch read line by line) with a rotating service account token and a pinned
 * CA, and {@link dev.dra.sidecar.kube.ListWatch} keeps a listener up to date with one collection (list, then watch
 * from the list's resourceVersion, list again when the watch ends), its objects as the API server's JSON keyed by
 * namespace and name. {@link dev.dra.sidecar.kube.KubeConfig} says how to reach the API server, the application's
 * one client is made the first time a part needs it, and {@link dev.dra.sidecar.kube.ApiRequests} counts its calls.
 * Knows nothing of what the objects mean, nor of the rest of the sidecar.
 */
package dev.dra.sidecar.kube;
