package dev.dra.sidecar.api.resource;

import jakarta.ws.rs.QueryParam;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The {@code ?driver=} and {@code ?pool=} of a read of a request's devices, as a JAX-RS bean parameter: only the
 * devices of that driver and that pool. A repeated one counts with its first value.
 *
 * @param driver the driver the devices must have, or {@code null} (absent) for any
 * @param pool the pool the devices must be in, or {@code null} (absent) for any
 */
public record DriverAndPool(
        @QueryParam("driver") @Parameter(description = "Only devices of this driver") String driver,
        @QueryParam("pool") @Parameter(description = "Only devices of this pool") String pool) {}
