package dev.dra.sidecar.snapshot;

import java.util.Map;

/**
 * A device of a request with its attributes ready to serve.
 *
 * @param attributes keyed by qualified name
 */
public record DeviceEntry(String driver, String pool, String name, Map<String, AttributeValue> attributes) {}
