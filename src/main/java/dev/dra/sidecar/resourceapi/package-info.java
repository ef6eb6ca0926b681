/**
 * The resource API as a source of metadata, beside the files: for each (claim, request, driver) that has no metadata
 * file, the {@code DeviceMetadata} a driver would write, derived from what the cluster knows
 * ({@link dev.dra.sidecar.resourceapi.ClaimDerivation}): the claim's allocation and device status
 * ({@link dev.dra.sidecar.resourceapi.AllocatedClaim}) and the pool's ResourceSlices
 * ({@link dev.dra.sidecar.resourceapi.ResourceSlices}). {@link dev.dra.sidecar.resourceapi.ResourceApiSource} keeps
 * them current through lists and watches and hands every change to the store, where a file always wins;
 * {@link dev.dra.sidecar.resourceapi.ResourceApi} runs it in node mode, and in sidecar mode when
 * {@link dev.dra.sidecar.resourceapi.ResourceApiConfig#enabled()}.
 */
package dev.dra.sidecar.resourceapi;
