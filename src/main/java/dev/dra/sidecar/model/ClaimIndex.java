package dev.dra.sidecar.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * {@code GET /claims}: every claim of one kind with its request names, sorted by name, and the path of the pod-wide
 * device list.
 *
 * @param devices always {@link #DEVICES}: discovery of the list of every device, whatever the claim
 */
@Schema(name = "ClaimIndex", description = "The claims of one kind, sorted by name")
public record ClaimIndex(List<Entry> claims,
        @Schema(description = "Path of every device this container sees, whatever the claim", examples = DEVICES)
        String devices) {

    /** The path of the pod-wide device list, as the API routes it and the index links to it. */
    public static final String DEVICES = "/devices";

    public ClaimIndex(List<Entry> claims) {
        this(claims, DEVICES);
    }

    /**
     * @param derived the requests (of {@code requests}) whose metadata comes, for at least one driver, from the
     *     resource API rather than a file; absent when every driver wrote its file
     */
    @Schema(name = "ClaimIndexEntry")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Entry(
            @Schema(examples = "gpu-claim") String name,
            @Schema(description = "Request names (directories), sorted") List<String> requests,
            @Schema(description = "The requests whose metadata comes, for at least one driver, from the resource "
                    + "API (no file: derived from the claim and the driver's ResourceSlices); absent when every "
                    + "driver wrote its file", examples = "[\"gpu\"]") List<String> derived) {}
}
