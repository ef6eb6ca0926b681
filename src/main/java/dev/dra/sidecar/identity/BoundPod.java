package dev.dra.sidecar.identity;

/**
 * The pod a token is bound to, as its token says: namespace, name and UID, and the node it was on when the token was
 * minted ({@code ""} when the token does not say).
 */
record BoundPod(String namespace, String name, String uid, String nodeName) {}
