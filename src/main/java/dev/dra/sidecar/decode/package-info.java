/**
 * Turns device-metadata files into {@link dev.dra.sidecar.model.DeviceMetadata} values with exactly the
 * outcome of the upstream Go {@code devicemetadata} package: {@link MetadataStreamDecoder} for one file,
 * {@link RequestMerger} for the files of one request, {@link MetadataValidator} for the upstream
 * validation rules, reported apart from decoding.
 */
package dev.dra.sidecar.decode;
