package dev.dra.sidecar.model;

import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** {@code GET /claims}: every claim of one kind with its request names, sorted by name. */
@Schema(name = "ClaimIndex", description = "The claims of one kind, sorted by name")
public record ClaimIndex(List<Entry> claims) {

    @Schema(name = "ClaimIndexEntry")
    public record Entry(
            @Schema(examples = "gpu-claim") String name,
            @Schema(description = "Request names (directories), sorted") List<String> requests) {}
}
