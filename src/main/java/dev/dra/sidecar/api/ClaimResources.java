package dev.dra.sidecar.api;

import dev.dra.sidecar.model.ClaimIndex;
import dev.dra.sidecar.model.ClaimView;
import dev.dra.sidecar.model.DeviceAttribute;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.snapshot.AttributeValue;
import dev.dra.sidecar.snapshot.ClaimEntry;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.DeviceEntry;
import dev.dra.sidecar.snapshot.DriverEntry;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.RequestEntry;
import dev.dra.sidecar.snapshot.RequestValidation;
import dev.dra.sidecar.snapshot.Served;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * The resources of one claim kind. {@link DirectClaimsResource} serves them under {@code /claims},
 * {@link TemplateClaimsResource} under {@code /template-claims}; the behaviour is the same.
 */
public abstract class ClaimResources {

    @Inject
    Representations representations;

    /** Which claims this resource serves. */
    protected abstract ClaimKind kind();

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "List the claims", description = "Every claim of this kind that has metadata in this "
            + "container, with its request names, sorted by name.")
    @APIResponse(responseCode = "200", description = "The claims",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ClaimIndex.class)))
    @APIResponse(responseCode = "304", description = "Not modified (If-None-Match)")
    public Uni<Response> list(@BeanParam Conditions conditions) {
        return representations.answer(s -> s.claims(kind()).index(), conditions, MediaType.APPLICATION_JSON);
    }

    @GET
    @Path("{claim}")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Get every request of a claim", description = "The merged DeviceMetadata of each request.")
    @APIResponse(responseCode = "200", description = "The claim",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ClaimView.class)))
    @APIResponse(responseCode = "304", description = "Not modified (If-None-Match)")
    public Uni<Response> claim(@PathParam("claim") @Parameter(description = "Claim name (DNS subdomain)") String claim,
            @BeanParam Conditions conditions) {
        PathNames.claim(claim);
        return representations.answer(s -> SnapshotLookup.claim(s, kind(), claim).served(), conditions, MediaType.APPLICATION_JSON);
    }

    @GET
    @Path("{claim}/{request}")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Get a request's metadata", description = "The merged DeviceMetadata of all drivers' files "
            + "of the request, as Go's ReadResourceClaimMetadata returns it, encoded as v1beta1.")
    @APIResponse(responseCode = "200", description = "The merged metadata; Metadata-Source-Version names the "
            + "apiVersions decoded, in file order",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = DeviceMetadata.class)))
    @APIResponse(responseCode = "304", description = "Not modified (If-None-Match)")
    public Uni<Response> request(
            @PathParam("claim") @Parameter(description = "Claim name (DNS subdomain)") String claim,
            @PathParam("request") @Parameter(description = "Top-level request name (DNS label)") String request,
            @BeanParam Conditions conditions) {
        PathNames.claim(claim);
        PathNames.request(request);
        return representations.answer(s -> SnapshotLookup.request(s, kind(), claim, request).merged(), conditions,
                MediaType.APPLICATION_JSON);
    }

    @GET
    @Path("{claim}/{request}/drivers/{driver}")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Get one driver's metadata", description = "That driver's complete object, with all of "
            + "its metadata including generation, as Go's ReadResourceClaimMetadataWithDriverName returns it.")
    @APIResponse(responseCode = "200", description = "The driver's metadata",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = DeviceMetadata.class)))
    @APIResponse(responseCode = "304", description = "Not modified (If-None-Match)")
    public Uni<Response> driver(
            @PathParam("claim") @Parameter(description = "Claim name (DNS subdomain)") String claim,
            @PathParam("request") @Parameter(description = "Top-level request name (DNS label)") String request,
            @PathParam("driver") @Parameter(description = "Driver name, as in <driver>-metadata.json") String driver,
            @BeanParam Conditions conditions) {
        PathNames.claim(claim);
        PathNames.request(request);
        PathNames.driver(driver);
        return representations.answer(s -> SnapshotLookup.driver(s, kind(), claim, request, driver).served(), conditions,
                MediaType.APPLICATION_JSON);
    }

    @GET
    @Path("{claim}/{request}/validation")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Validate what a request serves", description = "For each driver file of the request, the "
            + "upstream validation result of the object being served (the last good one while a file is stale), "
            + "with the field paths POST /validate gives. As with the Go reader's validation option, an object "
            + "with violations is still served; a file that does not decode is listed with its failure.")
    @APIResponse(responseCode = "200", description = "The validation of each driver file",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = RequestValidation.class)))
    @APIResponse(responseCode = "304", description = "Not modified (If-None-Match)")
    public Uni<Response> validation(
            @PathParam("claim") @Parameter(description = "Claim name (DNS subdomain)") String claim,
            @PathParam("request") @Parameter(description = "Top-level request name (DNS label)") String request,
            @BeanParam Conditions conditions) {
        PathNames.claim(claim);
        PathNames.request(request);
        return representations.answer(s -> SnapshotLookup.request(s, kind(), claim, request).validation(), conditions,
                MediaType.APPLICATION_JSON);
    }

    @GET
    @Path("{claim}/{request}/devices/{device}/attributes/{attribute: .+}")
    @Produces({MediaType.APPLICATION_JSON, MediaType.TEXT_PLAIN})
    @Operation(summary = "Get one attribute value", description = "The typed value as JSON, or the bare value with "
            + "Accept: text/plain (lists: one item per line). The attribute may be a qualified name with '/', such "
            + "as resource.kubernetes.io/pciBusID.")
    @APIResponse(responseCode = "200", description = "The attribute value", content = {
        @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = DeviceAttribute.class)),
        @Content(mediaType = MediaType.TEXT_PLAIN, schema = @Schema(type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.STRING),
                example = "gpu-18db0e85-99e9-c746-8531-ffeb86328b39\n")})
    @APIResponse(responseCode = "304", description = "Not modified (If-None-Match)")
    @APIResponse(responseCode = "409", description = "ambiguous-device: several devices of the request have this "
            + "name; pick one with ?driver= and/or ?pool=",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Uni<Response> attribute(
            @PathParam("claim") @Parameter(description = "Claim name (DNS subdomain)") String claim,
            @PathParam("request") @Parameter(description = "Top-level request name (DNS label)") String request,
            @PathParam("device") @Parameter(description = "Device name") String device,
            @PathParam("attribute") @Parameter(description = "Attribute name, possibly qualified (domain/name)") String attribute,
            @QueryParam("driver") @Parameter(description = "Only devices of this driver") String driver,
            @QueryParam("pool") @Parameter(description = "Only devices of this pool") String pool,
            @BeanParam Conditions conditions, HttpHeaders headers) {
        PathNames.claim(claim);
        PathNames.request(request);
        PathNames.lookupKey("device name", device);
        PathNames.lookupKey("attribute name", attribute);
        boolean text = prefersText(headers);
        return representations.answer(s -> {
            AttributeValue value = attributeValue(s, claim, request, device, attribute, driver, pool);
            return text ? value.text() : value.json();
        }, conditions, text ? MediaType.TEXT_PLAIN + ";charset=UTF-8" : MediaType.APPLICATION_JSON);
    }

    private AttributeValue attributeValue(MetadataSnapshot snapshot, String claim, String request, String device,
            String attribute, String driver, String pool) {
        RequestEntry entry = SnapshotLookup.request(snapshot, kind(), claim, request);
        if (entry.merged() instanceof Served.Unavailable failure) {
            throw Representations.failure(failure);
        }
        List<DeviceEntry> matches = entry.devices().stream()
                .filter(d -> device.equals(d.name()))
                .filter(d -> driver == null || driver.equals(d.driver()))
                .filter(d -> pool == null || pool.equals(d.pool()))
                .toList();
        if (matches.isEmpty()) {
            throw ApiException.notFound("no device " + PathNames.quote(device) + " in request " + request + " of "
                    + SnapshotLookup.noun(kind()) + " " + claim + (driver == null && pool == null ? "" : " with that driver and pool"));
        }
        if (matches.size() > 1) {
            throw new ApiException(409, "ambiguous-device", "Ambiguous device", "request " + request + " has "
                    + matches.size() + " devices named " + PathNames.quote(device) + " ("
                    + matches.stream().map(d -> "driver=" + d.driver() + " pool=" + d.pool()).collect(Collectors.joining(", "))
                    + "); pick one with ?driver= and/or ?pool=");
        }
        AttributeValue value = matches.get(0).attributes().get(attribute);
        if (value == null) {
            throw ApiException.notFound("device " + PathNames.quote(device) + " has no attribute " + PathNames.quote(attribute));
        }
        return value;
    }


    /** {@code text/plain} only when the client ranks it above JSON. */
    private static boolean prefersText(HttpHeaders headers) {
        for (MediaType type : headers.getAcceptableMediaTypes()) {
            if (type.isCompatible(MediaType.APPLICATION_JSON_TYPE) && !type.isWildcardType()) {
                return false;
            }
            if (type.isCompatible(MediaType.TEXT_PLAIN_TYPE) && !type.isWildcardType()) {
                return true;
            }
            if (type.isWildcardType()) {
                return false;
            }
        }
        return false;
    }
}
