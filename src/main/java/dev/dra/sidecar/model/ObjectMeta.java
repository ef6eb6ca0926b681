package dev.dra.sidecar.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import java.util.Map;

/**
 * The Kubernetes ObjectMeta of the ResourceClaim, with every field a file may carry. Drivers fill only
 * name, namespace, uid and generation; the rest appears in upstream fixtures and must round-trip.
 *
 * @param generation the metadata file's generation (1 at prepare, +1 per update), not the claim's
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation",
    "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations",
    "ownerReferences", "finalizers", "managedFields"})
@Schema(name = "ObjectMeta", description = "Kubernetes ObjectMeta of the ResourceClaim")
public record ObjectMeta(
        String name,
        String generateName,
        String namespace,
        String selfLink,
        String uid,
        String resourceVersion,
        Long generation,
        @JsonDeserialize(using = KubernetesTime.Deserializer.class) String creationTimestamp,
        @JsonDeserialize(using = KubernetesTime.Deserializer.class) String deletionTimestamp,
        Long deletionGracePeriodSeconds,
        Map<String, String> labels,
        Map<String, String> annotations,
        List<OwnerReference> ownerReferences,
        List<String> finalizers,
        List<ManagedFieldsEntry> managedFields) {

    /** Only the claim identity; what a merged object keeps when every file agrees on it. */
    public static ObjectMeta identity(String name, String namespace, String uid) {
        return new ObjectMeta(name, null, namespace, null, uid, null, null, null, null, null, null, null, null,
                null, null);
    }
}
