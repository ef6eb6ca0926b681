package dev.dra.sidecar.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * An RFC 9457 problem body, with the machine-readable {@code code} of the HTTP contract.
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
        @Schema(description = "Machine-readable code", enumeration = {"invalid-name", "invalid-parameter",
            "invalid-host", "not-found", "method-not-allowed", "not-acceptable", "unsupported-media-type",
            "payload-too-large", "ambiguous-device", "invalid-object", "no-compatible-version", "file-too-large",
            "no-metadata-objects", "malformed-stream", "unreadable", "too-many-long-polls", "bad-request", "internal"},
            examples = "not-found")
        String code) {

    public static final String MEDIA_TYPE = "application/problem+json";

    static Problem of(int status, String code, String title, String detail) {
        return new Problem("urn:dra-metadata-sidecar:problem:" + code, title, status, detail, code);
    }
}
