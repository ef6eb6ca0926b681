package dev.dra.sidecar.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Network configuration of a device, typically added by a network driver after prepare.
 *
 * @param ips addresses in CIDR notation ({@code 192.0.2.5/24})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"interfaceName", "ips", "hardwareAddress"})
@Schema(name = "NetworkDeviceData", description = "Network configuration of a device")
public record NetworkDeviceData(
        @Schema(examples = "eth1") String interfaceName,
        @Schema(description = "Addresses in CIDR notation", examples = "[\"192.0.2.5/24\"]") List<String> ips,
        @Schema(examples = "00:11:22:33:44:55") String hardwareAddress) {}
