package dev.dra.sidecar.model;

import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** {@code GET /claims/{claim}}: every request of a claim, each merged across its drivers' files. */
@Schema(name = "Claim", description = "Every request of a claim, each merged across drivers, sorted by request")
public record ClaimView(@Schema(examples = "gpu-claim") String name, List<DeviceMetadata> requests) {}
