package dev.dra.sidecar.api.path;

import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The names in the path of one driver's metadata of a request, {@code .../{request}/drivers/{driver}}: see
 * {@link ClaimPath}.
 */
public class DriverPath extends RequestPath {

    @PathParam("driver")
    @Parameter(description = "Driver name, as in <driver>-metadata.json")
    String driver;

    @Override
    public DriverPath checked() {
        super.checked();
        PathNames.driver(driver);
        return this;
    }

    /** The driver name. */
    public String driver() {
        return driver;
    }
}
