/**
 * Turns device-metadata files into {@link dev.dra.sidecar.model.DeviceMetadata} values with exactly the
 * outcome of the upstream Go {@code devicemetadata} package: {@link MetadataStreamDecoder} for one file,
 * {@link RequestMerger} for the files of one request, {@link MetadataValidator} for the upstream
 * validation rules, reported apart from decoding. How Go's {@code encoding/json} reads is in
 * {@link dev.dra.sidecar.decode.gojson}, how go-yaml reads a stream value that is not an object in
 * {@link dev.dra.sidecar.decode.goyaml}; neither needs anything of this package.
 */
package dev.dra.sidecar.decode;
