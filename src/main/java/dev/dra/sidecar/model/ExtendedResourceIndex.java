package dev.dra.sidecar.model;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** {@code GET /extended-resources}: the calling pod's extended resources, by container, in the pod's order. */
@Schema(name = "ExtendedResourceIndex", description = "The pod's extended resources (node mode), by container")
public record ExtendedResourceIndex(List<Container> containers) {

    @Schema(name = "ExtendedResourceContainer")
    public record Container(@Schema(examples = "app") String name, List<Resource> resources) {}

    /**
     * @param claim the claim made for the pod's extended resources
     * @param request the claim's request that serves this resource (a name the scheduler made, not an API)
     */
    @JsonPropertyOrder({"name", "claim", "request"})
    @Schema(name = "ExtendedResource")
    public record Resource(@Schema(examples = "example.com/gpu") String name,
            @Schema(examples = "app-extended-resources-4ph6k") String claim,
            @Schema(examples = "container-0-request-0") String request) {}
}
