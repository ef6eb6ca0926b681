package dev.dra.sidecar.decode;

import dev.dra.sidecar.model.DeviceMetadata;
import java.util.List;

/**
 * The first compatible object of a stream.
 *
 * @param object the object, labelled with the apiVersion it was decoded from
 * @param sourceVersion that apiVersion ({@code metadata.resource.k8s.io/v1beta1} or {@code /v1alpha1})
 * @param skippedVersions the unknown group/versions that came before it, in stream order
 */
public record DecodedMetadata(DeviceMetadata object, String sourceVersion, List<String> skippedVersions) {}
