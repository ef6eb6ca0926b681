package dev.dra.sidecar.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The devices allocated for one request of a claim.
 *
 * @param name the request name as the driver wrote it, possibly {@code request/subrequest}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"name", "devices"})
@Schema(name = "DeviceMetadataRequest", description = "The devices allocated for one request")
public record DeviceMetadataRequest(
        @Schema(description = "Request name as the driver wrote it, possibly request/subrequest", examples = "gpu")
        String name,
        List<Device> devices) {

    /** Whether this entry belongs to the top-level request {@code request} (subrequests included). */
    public boolean belongsTo(String request) {
        return name != null && (name.equals(request) || name.startsWith(request + "/"));
    }
}
