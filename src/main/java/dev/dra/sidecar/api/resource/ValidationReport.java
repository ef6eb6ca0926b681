package dev.dra.sidecar.api.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.dra.sidecar.decode.Violation;
import dev.dra.sidecar.model.DeviceMetadata;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What {@code POST /validate} found in a stream: how it decodes (as a consumer would read it) and every
 * violation of the upstream validation rules.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"decoded", "apiVersion", "skippedVersions", "error", "valid", "violations", "object"})
@Schema(name = "ValidationReport", description = "Decode outcome and validation violations of a metadata stream")
public record ValidationReport(
        @Schema(description = "Whether a consumer can decode the stream") boolean decoded,
        @Schema(description = "The apiVersion a consumer would use", examples = "metadata.resource.k8s.io/v1beta1")
        String apiVersion,
        @Schema(description = "Unknown group/versions skipped before it, in stream order") List<String> skippedVersions,
        @Schema(description = "Why the stream does not decode") DecodeError error,
        @Schema(description = "Decoded and no violations") boolean valid,
        @Schema(description = "Every violation of the upstream validation rules") List<Violation> violations,
        @Schema(description = "The decoded object, as the sidecar would serve it") DeviceMetadata object) {

    /** Why a stream does not decode: the decoder's code and message, as a consumer would meet them. */
    @Schema(name = "DecodeError")
    public record DecodeError(
            @Schema(examples = "malformed-stream") String code,
            @Schema(examples = "stream: read metadata object from stream: unexpected EOF") String message) {}
}
