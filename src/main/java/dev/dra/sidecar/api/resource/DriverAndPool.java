package dev.dra.sidecar.api.resource;

import jakarta.ws.rs.QueryParam;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The {@code ?driver=} and {@code ?pool=} of a read of a request's devices, as a JAX-RS bean parameter: only the
 * devices of that driver and that pool; {@code null} (absent) is any. A repeated one counts with its first value.
 */
public class DriverAndPool {

    @QueryParam("driver")
    @Parameter(description = "Only devices of this driver")
    String driver;

    @QueryParam("pool")
    @Parameter(description = "Only devices of this pool")
    String pool;

    /** The driver the devices must have, or {@code null} for any. */
    String driver() {
        return driver;
    }

    /** The pool the devices must be in, or {@code null} for any. */
    String pool() {
        return pool;
    }
}
