package dev.dra.sidecar.api.resource;

import dev.dra.sidecar.api.body.AttributeColumn;
import dev.dra.sidecar.api.body.DeviceSelection;
import dev.dra.sidecar.api.body.EnvFile;
import dev.dra.sidecar.api.path.ApiRoutes;
import dev.dra.sidecar.api.path.AttributeName;
import dev.dra.sidecar.api.path.ClaimPath;
import dev.dra.sidecar.api.path.DevicePath;
import dev.dra.sidecar.api.path.DriverPath;
import dev.dra.sidecar.api.path.RequestPath;
import dev.dra.sidecar.api.read.FastReadHandler;
import dev.dra.sidecar.api.read.Conditions;
import dev.dra.sidecar.api.read.ReadResponder;
import dev.dra.sidecar.api.read.SnapshotLookup;
import dev.dra.sidecar.model.ClaimIndex;
import dev.dra.sidecar.model.ClaimView;
import dev.dra.sidecar.model.DeviceAttribute;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.snapshot.AttributeValue;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.RequestValidation;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * The resources of one claim kind, at the paths of {@link ApiRoutes}. {@link DirectClaimsResource} serves them
 * under {@code /claims}, {@link TemplateClaimsResource} under {@code /template-claims}; the behaviour is the same.
 * Each method takes the names of its path as one bean parameter ({@link ClaimPath} or a class below it) and checks
 * them before anything is looked up. Plain reads of an index, claim, request or driver usually never get here:
 * {@link FastReadHandler} answers them with the same bytes and headers.
 */
public abstract class ClaimResources {

    @Inject
    ReadResponder reads;

    /** Which claims this resource serves. */
    protected abstract ClaimKind kind();

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "List the claims", description = "Every claim of this kind that has metadata in this "
            + "container, with its request names, sorted by name.")
    @APIResponse(responseCode = "200", description = "The claims",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ClaimIndex.class)))
    public Uni<Response> list(@BeanParam Conditions conditions) {
        return reads.answer(s -> s.claims(kind()).index(), conditions, MediaType.APPLICATION_JSON);
    }

    @GET
    @Path(ApiRoutes.CLAIM)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Get every request of a claim", description = "The merged DeviceMetadata of each request.")
    @APIResponse(responseCode = "200", description = "The claim",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ClaimView.class)))
    public Uni<Response> claim(@BeanParam ClaimPath path, @BeanParam Conditions conditions) {
        ClaimPath names = path.checked();
        return reads.answer(s -> SnapshotLookup.claim(s, kind(), names.claim()).served(), conditions,
                MediaType.APPLICATION_JSON);
    }

    @GET
    @Path(ApiRoutes.REQUEST)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Get a request's metadata", description = "The merged DeviceMetadata of all drivers' files "
            + "of the request, as Go's ReadResourceClaimMetadata returns it, encoded as v1beta1.")
    @APIResponse(responseCode = "200", description = "The merged metadata; Metadata-Source-Version names the "
            + "apiVersions decoded, in file order",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = DeviceMetadata.class)))
    public Uni<Response> request(@BeanParam RequestPath path, @BeanParam Conditions conditions) {
        RequestPath names = path.checked();
        return reads.answer(s -> SnapshotLookup.request(s, kind(), names.claim(), names.request()).merged(), conditions,
                MediaType.APPLICATION_JSON);
    }

    @GET
    @Path(ApiRoutes.DRIVER)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Get one driver's metadata", description = "That driver's complete object, with all of "
            + "its metadata including generation, as Go's ReadResourceClaimMetadataWithDriverName returns it.")
    @APIResponse(responseCode = "200", description = "The driver's metadata",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = DeviceMetadata.class)))
    public Uni<Response> driver(@BeanParam DriverPath path, @BeanParam Conditions conditions) {
        DriverPath names = path.checked();
        return reads.answer(s -> SnapshotLookup.driver(s, kind(), names.claim(), names.request(), names.driver())
                .served(), conditions, MediaType.APPLICATION_JSON);
    }

    @GET
    @Path(ApiRoutes.VALIDATION)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Validate what a request serves", description = "For each driver file of the request, the "
            + "upstream validation result of the object being served (the last good one while a file is stale), "
            + "with the field paths POST /validate gives. As with the Go reader's validation option, an object "
            + "with violations is still served; a file that does not decode is listed with its failure.")
    @APIResponse(responseCode = "200", description = "The validation of each driver file",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = RequestValidation.class)))
    public Uni<Response> validation(@BeanParam RequestPath path, @BeanParam Conditions conditions) {
        RequestPath names = path.checked();
        return reads.answer(s -> SnapshotLookup.request(s, kind(), names.claim(), names.request()).validation(),
                conditions, MediaType.APPLICATION_JSON);
    }

    @GET
    @Path(ApiRoutes.ATTRIBUTE)
    @Produces({MediaType.APPLICATION_JSON, MediaType.TEXT_PLAIN})
    @Operation(summary = "Get one attribute value", description = "The typed value as JSON, or the bare value with "
            + "Accept: text/plain (lists: one item per line). The attribute may be a qualified name with '/', such "
            + "as resource.kubernetes.io/pciBusID.")
    @APIResponse(responseCode = "200", description = "The attribute value", content = {
        @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = DeviceAttribute.class)),
        @Content(mediaType = MediaType.TEXT_PLAIN, schema = @Schema(type = SchemaType.STRING),
                example = "gpu-18db0e85-99e9-c746-8531-ffeb86328b39\n")})
    public Uni<Response> attribute(@BeanParam DevicePath path, @BeanParam AttributeName attribute,
            @BeanParam DriverAndPool only, @BeanParam Conditions conditions, HttpHeaders headers) {
        DevicePath names = path.checked();
        String name = attribute.checked();
        boolean text = PlainText.preferredBy(headers);
        return reads.answer(s -> {
            AttributeValue value = SnapshotLookup.attribute(s, kind(), names.claim(), names.request(), names.device(),
                    name, only.driver(), only.pool());
            return text ? value.text() : value.json();
        }, conditions, text ? PlainText.MEDIA_TYPE : MediaType.APPLICATION_JSON);
    }

    @GET
    @Path(ApiRoutes.REQUEST_ATTRIBUTE)
    @Produces({MediaType.APPLICATION_JSON, MediaType.TEXT_PLAIN})
    @Operation(summary = "Get one attribute of every device of a request", description = "Every device of the "
            + "request (of ?driver= and ?pool= when given), in serving order, each with its driver, pool, name and "
            + "typed value; a device without the attribute is listed without value. With Accept: text/plain, the "
            + "bare values, one line per device (a list value: one line per item), and an empty line for a device "
            + "without the attribute: the lines never shift. The attribute may be a qualified name with '/'.")
    @APIResponse(responseCode = "200", description = "The attribute of each device", content = {
        @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = AttributeColumn.class)),
        @Content(mediaType = MediaType.TEXT_PLAIN, schema = @Schema(type = SchemaType.STRING),
                example = "gpu-18db0e85-99e9-c746-8531-ffeb86328b39\ngpu-7a2c4e61-0b3d-4f58-a9e6-c1d2e3f40516\n")})
    public Uni<Response> requestAttribute(@BeanParam RequestPath path, @BeanParam AttributeName attribute,
            @BeanParam DriverAndPool only, @BeanParam Conditions conditions, HttpHeaders headers) {
        RequestPath names = path.checked();
        String name = attribute.checked();
        boolean text = PlainText.preferredBy(headers);
        return reads.answer(s -> {
            DeviceSelection devices = devices(s, names, only);
            return text ? AttributeColumn.text(devices, name) : AttributeColumn.json(devices, name, false);
        }, conditions, text ? PlainText.MEDIA_TYPE : MediaType.APPLICATION_JSON);
    }

    @GET
    @Path(ApiRoutes.ENV)
    @Produces(MediaType.TEXT_PLAIN)
    @Operation(summary = "Get a request's metadata as shell variables", description = "One NAME='value' line per "
            + "attribute (and networkData field) of each device of the request (of ?driver= and ?pool= when given), "
            + "for eval \"$(curl -s ...)\" in a POSIX shell. NAME is DRA_<CLAIM>_<REQUEST>_<DEVICE>_<ATTRIBUTE>, "
            + "each part upper-cased with every character other than A-Z and 0-9 made _ (networkData: "
            + "NETWORKDATA_INTERFACENAME, NETWORKDATA_IPS, NETWORKDATA_HARDWAREADDRESS); a list value is its items "
            + "joined with ','. Values are single-quoted, so no metadata can run a command or set another variable; "
            + "two values that would get one name are refused (409 env-name-collision).")
    @APIResponse(responseCode = "200", description = "The variable assignments", content = @Content(
            mediaType = MediaType.TEXT_PLAIN, schema = @Schema(type = SchemaType.STRING),
            example = "DRA_GPU_CLAIM_GPU_GPU_0_UUID='gpu-18db0e85-99e9-c746-8531-ffeb86328b39'\n"))
    public Uni<Response> env(@BeanParam RequestPath path, @BeanParam DriverAndPool only,
            @BeanParam Conditions conditions) {
        RequestPath names = path.checked();
        return reads.answer(s -> EnvFile.text(devices(s, names, only)), conditions, PlainText.MEDIA_TYPE);
    }

    /** The devices of the request {@code names} names, only those of {@code only}'s driver and pool when given. */
    private DeviceSelection devices(MetadataSnapshot snapshot, RequestPath names, DriverAndPool only) {
        return DeviceSelection.ofRequest(snapshot, kind(), names.claim(), names.request(), only.driver(), only.pool());
    }
}
