/**
 * The JAX-RS resources, one class per group of paths ({@code /claims} and {@code /template-claims} share
 * {@link dev.dra.sidecar.api.resource.ClaimResources}), and {@link dev.dra.sidecar.api.resource.ProblemMappers},
 * which answers every failure of theirs as a problem body. Each resource method checks the names of its path, then
 * hands what to look up to the read responder.
 */
package dev.dra.sidecar.api.resource;
