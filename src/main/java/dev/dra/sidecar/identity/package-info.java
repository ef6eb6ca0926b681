/**
 * Node mode: who is asking. {@link dev.dra.sidecar.identity.PodCallers} turns a request's bearer token and peer
 * address into the calling pod's {@link dev.dra.sidecar.identity.PodView}, or a {@link
 * dev.dra.sidecar.identity.Refusal}: the token is verified here ({@code PodTokens}: its signature by the service
 * account issuer's keys, {@code IssuerKeys}, fetched from the API server at start, and its claims,
 * {@code TokenVerifier}; a TokenReview, {@code TokenReviewer}, only while no keys could be had), the pod it is bound
 * to is found among this node's pods ({@link dev.dra.sidecar.identity.NodePods}, each kept as a
 * {@link dev.dra.sidecar.identity.PodInfo} from a list and watch of the API server, which the resource-API source
 * reads too), and that pod's claims make its view: a snapshot that holds the caller's claims and nothing else.
 * Settings are {@link dev.dra.sidecar.identity.NodeConfig}; the API server is reached through
 * {@link dev.dra.sidecar.kube}.
 */
package dev.dra.sidecar.identity;
