/**
 * The way in: the Vert.x handlers that every request on the API port passes before the JAX-RS resources.
 * {@link dev.dra.sidecar.api.route.RequestBodyScreen} refuses a body it cannot take before it is read;
 * {@link dev.dra.sidecar.api.route.RequestPipeline} labels the URI template, checks the Host
 * ({@link dev.dra.sidecar.api.route.HostHeaderFilter}) and the caller, and lets the fast read path answer.
 */
package dev.dra.sidecar.api.route;
