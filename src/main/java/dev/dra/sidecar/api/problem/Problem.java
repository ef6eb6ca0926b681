package dev.dra.sidecar.api.problem;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * An RFC 9457 problem body, with the machine-readable {@code code} of the HTTP contract; made by
 * {@link ProblemType#problem}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"type", "title", "status", "detail", "code"})
@Schema(name = "Problem", description = "RFC 9457 problem details with a machine-readable code.")
public record Problem(
        @Schema(description = "URI reference naming the problem type", examples = "urn:dra-metadata-sidecar:problem:not-found")
        String type,
        @Schema(description = "Short summary of the problem type", examples = "Not found")
        String title,
        @Schema(description = "The HTTP status code", examples = "404")
        int status,
        @Schema(description = "What happened, naming the claim, request or file", examples = "no claim gpu-claim")
        String detail,
        // The enumeration of codes is ProblemType's, added by OpenApiDocument.
        @Schema(description = "Machine-readable code", examples = "not-found")
        String code) {

    public static final String MEDIA_TYPE = "application/problem+json";
}
