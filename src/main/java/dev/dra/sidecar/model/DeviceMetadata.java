package dev.dra.sidecar.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One {@code DeviceMetadata} object: the metadata of one claim's request(s), as a driver writes it.
 *
 * @param metadata the ResourceClaim's ObjectMeta; {@code generation} is the metadata file's generation
 * @param podClaimName set only for claims generated from a ResourceClaimTemplate
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"kind", "apiVersion", "metadata", "podClaimName", "requests"})
@Schema(name = "DeviceMetadata", description = "Device metadata of a claim's request(s), served as "
        + "metadata.resource.k8s.io/v1beta1 (v1alpha1 has the same shape)")
public record DeviceMetadata(
        @Schema(examples = "DeviceMetadata") String kind,
        @Schema(examples = "metadata.resource.k8s.io/v1beta1") String apiVersion,
        @Schema(description = "The ResourceClaim's ObjectMeta; generation is the metadata file's generation. "
                + "Merged views keep name, namespace and uid when all files agree, never generation.")
        ObjectMeta metadata,
        @Schema(description = "The pod's claim name, for claims generated from a ResourceClaimTemplate",
                examples = "gpu")
        String podClaimName,
        @Schema(description = "One entry per request; entries of several drivers with the same name are merged")
        List<DeviceMetadataRequest> requests) {

    public static final String KIND = "DeviceMetadata";
    public static final String GROUP = "metadata.resource.k8s.io";
    public static final String V1ALPHA1 = GROUP + "/v1alpha1";
    public static final String V1BETA1 = GROUP + "/v1beta1";

    /** The same object labelled with another apiVersion (v1alpha1 and v1beta1 share one shape). */
    public DeviceMetadata withApiVersion(String newApiVersion) {
        return new DeviceMetadata(KIND, newApiVersion, metadata, podClaimName, requests);
    }
}
