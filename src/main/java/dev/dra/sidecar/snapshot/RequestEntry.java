package dev.dra.sidecar.snapshot;

import java.util.List;
import java.util.SortedMap;

/**
 * One request directory: {@code <root>/<kind dir>/<claim>/<request>/}.
 *
 * @param drivers the request's files keyed by driver name, in byte order of their file names
 * @param merged the merged view of all drivers, or the failure of the first file that failed
 * @param devices the devices of the merged view in order (empty when it failed)
 * @param validation the {@link RequestValidation} of the request's driver files, always available
 */
public record RequestEntry(String name, SortedMap<String, DriverEntry> drivers, Served merged,
        List<DeviceEntry> devices, Served.Available validation) {}
