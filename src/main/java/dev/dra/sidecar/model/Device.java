package dev.dra.sidecar.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One allocated device.
 *
 * @param attributes keyed by qualified name ({@code model}, {@code resource.kubernetes.io/pciBusID});
 *     sorted by key when decoded, as the Go writer sorts map keys
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"driver", "pool", "name", "attributes", "networkData"})
@Schema(name = "Device", description = "One allocated device")
public record Device(
        @Schema(examples = "gpu.example.com") String driver,
        @Schema(examples = "worker-0") String pool,
        @Schema(examples = "gpu-0") String name,
        @Schema(description = "Typed attribute values keyed by (qualified) attribute name")
        Map<String, DeviceAttribute> attributes,
        NetworkDeviceData networkData) {}
