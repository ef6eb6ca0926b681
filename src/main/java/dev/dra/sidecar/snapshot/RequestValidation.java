package dev.dra.sidecar.snapshot;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.dra.sidecar.decode.Violation;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * {@code GET .../{claim}/{request}/validation}: the upstream validation result of what is served for each
 * driver file of a request. As with the Go reader's validation option, validation is reported apart from
 * decoding: an object with violations is still served.
 *
 * @param valid every driver's metadata is a file that has an object served with no violation
 * @param drivers one entry per driver, in byte order of the file names (the order of the merge)
 */
@JsonPropertyOrder({"request", "valid", "drivers"})
@Schema(name = "RequestValidation", description = "Upstream validation of the object served for each driver file of a request")
public record RequestValidation(
        @Schema(description = "The request (directory) name", examples = "gpu") String request,
        @Schema(description = "Every driver's metadata is a file that has an object served with no violation")
        boolean valid,
        List<DriverValidation> drivers) {

    /**
     * @param source {@code resource-api} for a driver that wrote no file (its metadata derived from the resource API;
     *     {@code error} then says so with the code {@code derived-metadata}); absent for a file
     * @param file the file's path, as the container sees it; absent without a file
     * @param apiVersion the apiVersion the served object was decoded from; absent when the file never decoded
     * @param stale why what is served (and validated) is not the file's latest content: its latest read failed
     *     ({@code <code>: <reason>}), or the host replaced the file ({@code detached: <reason>})
     * @param error why the file does not decode, when no object is served for it (then nothing is validated)
     * @param valid whether the served object has no violation; absent when no object is served
     * @param violations every violation of the served object, with its field path; absent when none is served
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"driver", "source", "file", "apiVersion", "stale", "error", "valid", "violations"})
    @Schema(name = "DriverValidation", description = "Validation of the object served for one driver file")
    public record DriverValidation(
            @Schema(examples = "gpu.example.com") String driver,
            @Schema(description = "resource-api when the driver wrote no file and its metadata is derived from the "
                    + "resource API (then error has the code derived-metadata); absent for a file",
                    examples = "resource-api") String source,
            @Schema(examples = "/var/run/kubernetes.io/dra-device-attributes/resourceclaims/gpu-claim/gpu/gpu.example.com-metadata.json")
            String file,
            @Schema(examples = "metadata.resource.k8s.io/v1beta1") String apiVersion,
            @Schema(description = "Why what is served is not the file's latest content (a failed read, or detached)")
            String stale,
            @Schema(description = "Why the file does not decode, or that there is no file (derived-metadata); nothing "
                    + "is validated then") Failure error,
            @Schema(description = "The served object has no violation") Boolean valid,
            @Schema(description = "Every violation of the upstream validation rules") List<Violation> violations) {}

    @Schema(name = "DriverFailure")
    public record Failure(@Schema(examples = "malformed-stream") String code, String detail) {}
}
