package dev.dra.sidecar.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * Network configuration of a device, typically added by a network driver after prepare.
 *
 * @param ips addresses in CIDR notation ({@code 192.0.2.5/24})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"interfaceName", "ips", "hardwareAddress"})
public record NetworkDeviceData(String interfaceName, List<String> ips, String hardwareAddress) {}
