package dev.dra.sidecar.api.resource;

import dev.dra.sidecar.api.caller.Caller;
import dev.dra.sidecar.api.caller.CallerResolver;
import dev.dra.sidecar.api.path.ApiRoutes;
import dev.dra.sidecar.api.path.ExtendedResourcePath;
import dev.dra.sidecar.api.read.Conditions;
import dev.dra.sidecar.api.read.ReadResponder;
import dev.dra.sidecar.api.read.SnapshotLookup;
import dev.dra.sidecar.identity.PodInfo;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.model.ExtendedResourceIndex;
import dev.dra.sidecar.snapshot.ClaimKind;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Node mode: the calling pod's DRA extended resources ({@code resources.limits: {example.com/gpu: 1}} with no claim in
 * the pod's spec), by container and resource name, as the pod's {@code status.extendedResourceClaimStatus} maps them
 * to a claim and request. The metadata is the request's, as {@code /claims/<claim>/<request>} serves it.
 */
@Path(ApiRoutes.EXTENDED_RESOURCES)
@Tag(name = "extended-resources", description = "Node mode: the pod's extended resources, by container and resource")
public class ExtendedResourcesResource {

    @Inject
    ReadResponder reads;

    @Inject
    CallerResolver callers;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(operationId = "listExtendedResources", summary = "List the pod's extended resources", description = "Node mode: each container's extended "
            + "resources with the claim and request that serve them. A sidecar knows none (an empty list).")
    @APIResponse(responseCode = "200", description = "The extended resources", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ExtendedResourceIndex.class)))
    public Uni<Response> list(@BeanParam Conditions conditions) {
        Caller caller = callers.current();
        return reads.answer(s -> caller.extendedIndex(), conditions, MediaType.APPLICATION_JSON);
    }

    @GET
    @Path(ApiRoutes.EXTENDED_RESOURCE)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(operationId = "getExtendedResource", summary = "Get an extended resource's metadata", description = "Node mode: the merged DeviceMetadata "
            + "of the claim request that serves this container's extended resource, the same as "
            + "/claims/{claim}/{request} answers. The resource name keeps its '/': /extended-resources/app/example.com/gpu.")
    @APIResponse(responseCode = "200", description = "The merged metadata", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = DeviceMetadata.class)))
    public Uni<Response> resource(@BeanParam ExtendedResourcePath path, @BeanParam Conditions conditions) {
        ExtendedResourcePath names = path.checked();
        PodInfo.ExtendedResource found = callers.current().extended(names.container(), names.resource());
        return reads.answer(s -> SnapshotLookup.request(s, ClaimKind.CLAIM, found.claim(), found.request()).merged(),
                conditions, MediaType.APPLICATION_JSON);
    }
}
