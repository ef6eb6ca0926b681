package dev.dra.sidecar.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;

/**
 * One allocated device.
 *
 * @param attributes keyed by qualified name ({@code model}, {@code resource.kubernetes.io/pciBusID});
 *     sorted by key when decoded, as the Go writer sorts map keys
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"driver", "pool", "name", "attributes", "networkData"})
public record Device(
        String driver,
        String pool,
        String name,
        Map<String, DeviceAttribute> attributes,
        NetworkDeviceData networkData) {}
