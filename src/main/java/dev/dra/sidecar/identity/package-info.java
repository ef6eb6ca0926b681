/**
 * Node mode: who is asking. A request's bearer token is checked with a TokenReview ({@link
 * dev.dra.sidecar.identity.TokenReviews}), the pod it is bound to is found among this node's pods ({@link
 * dev.dra.sidecar.identity.NodePods}), and that pod's claims make its view ({@link dev.dra.sidecar.identity.PodViews}):
 * a snapshot that holds the caller's claims and nothing else. Talks to the API server with the JDK's HttpClient and
 * Jackson ({@link dev.dra.sidecar.identity.KubeApi}).
 */
package dev.dra.sidecar.identity;
