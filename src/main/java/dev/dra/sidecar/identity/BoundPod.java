package dev.dra.sidecar.identity;

/**
 * The pod a token is bound to, as its token says: namespace, name and UID, the node it was on when the token was
 * minted ({@code ""} when the token does not say), and the container whose view its audience asks for ({@code ""}:
 * the pod's view; {@link ViewAudience}).
 */
record BoundPod(String namespace, String name, String uid, String nodeName, String container) {}
