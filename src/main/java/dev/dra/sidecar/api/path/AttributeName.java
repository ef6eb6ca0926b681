package dev.dra.sidecar.api.path;

import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The attribute name that ends the path of an attribute read ({@code .../attributes/{attribute}}, below a device, a
 * request or {@code /devices}), as a JAX-RS bean parameter. The name may be qualified with a '/', so its template
 * takes the rest of the path.
 *
 * @param attribute the name as the path gives it, not yet checked
 */
public record AttributeName(
        @PathParam("attribute") @Parameter(description = "Attribute name, possibly qualified (domain/name)")
        String attribute) {

    /** The attribute name, checked as {@link PathNames} does: {@code 400 invalid-name} when it is not valid. */
    public String checked() {
        return PathNames.lookupKey("attribute name", attribute);
    }
}
