package dev.dra.sidecar.snapshot;

import dev.dra.sidecar.model.NetworkDeviceData;
import java.util.Map;

/**
 * A device of a request with its attributes ready to serve.
 *
 * @param attributes keyed by qualified name
 * @param networkData the device's network configuration as decoded, or {@code null} when the file has none
 */
public record DeviceEntry(String driver, String pool, String name, Map<String, AttributeValue> attributes,
        NetworkDeviceData networkData) {}
