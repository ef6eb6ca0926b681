package dev.dra.sidecar.api.resource;

import dev.dra.sidecar.api.path.ApiRoutes;
import dev.dra.sidecar.api.problem.ApiException;
import dev.dra.sidecar.api.problem.ProblemType;
import dev.dra.sidecar.decode.DecodedMetadata;
import dev.dra.sidecar.decode.MetadataDecodeException;
import dev.dra.sidecar.decode.MetadataStreamDecoder;
import dev.dra.sidecar.decode.MetadataValidator;
import dev.dra.sidecar.decode.Violation;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.store.config.StoreConfig;
import io.smallrye.common.annotation.Blocking;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * For driver authors: the kubelet plugin never validates what it writes, so this tells how a stream decodes
 * and what the upstream validation rules say of it, without a cluster.
 */
@Path(ApiRoutes.VALIDATE)
@Tag(name = "validate", description = "Check a metadata stream as a driver would write it")
public class ValidateResource {

    private static final String SOURCE = "stream";

    /** The media types a stream may be sent as, as {@link #validate}'s {@code @Consumes} declares them. */
    static final List<String> STREAM_MEDIA_TYPES = consumed();

    @Inject
    StoreConfig config;

    @POST
    @Blocking
    @Consumes({MediaType.APPLICATION_JSON, MediaType.APPLICATION_OCTET_STREAM, MediaType.TEXT_PLAIN})
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(operationId = "validateStream", summary = "Validate a metadata stream", description = "Decodes the body as a consumer would (first "
            + "known version, unknown versions skipped) and checks the upstream v1beta1 validation rules. A stream "
            + "that does not decode is still a 200: the report says why.")
    @RequestBody(description = "A device-metadata stream: one or more DeviceMetadata objects, newest version first, "
            + "as a driver writes it. Any bytes are a stream to report on (an empty body is an empty stream), so no "
            + "body is refused for its content: what does not decode is described in the report.", required = false,
            content = {@Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(description = "Any JSON text: "
                    + "one value or several one after the other, as they decode or not")),
                @Content(mediaType = MediaType.APPLICATION_OCTET_STREAM, schema = @Schema(type = SchemaType.STRING, format = "binary")),
                @Content(mediaType = MediaType.TEXT_PLAIN, schema = @Schema(type = SchemaType.STRING, format = "binary"))})
    @APIResponse(responseCode = "200", description = "The report",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ValidationReport.class)))
    public ValidationReport validate(byte[] stream) {
        long limit = config.maxFileSize().asLongValue();
        if (stream.length > limit) {
            throw new ApiException(ProblemType.PAYLOAD_TOO_LARGE, "the stream is larger than the file size limit of " + limit + " bytes");
        }
        DecodedMetadata decoded;
        try {
            decoded = MetadataStreamDecoder.decode(stream, SOURCE);
        } catch (MetadataDecodeException e) {
            return new ValidationReport(false, null, null,
                    new ValidationReport.DecodeError(e.code().code(), e.getMessage()), false, List.of(), null);
        }
        List<Violation> violations = MetadataValidator.validate(decoded.object());
        return new ValidationReport(true, decoded.sourceVersion(), decoded.skippedVersions(), null,
                violations.isEmpty(), violations, decoded.object().withApiVersion(DeviceMetadata.V1BETA1));
    }

    private static List<String> consumed() {
        try {
            return List.of(ValidateResource.class.getMethod("validate", byte[].class).getAnnotation(Consumes.class).value());
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }
}
