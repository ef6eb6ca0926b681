package dev.dra.sidecar.api.path;

import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The names in the path of a claim, {@code /<kind>/{claim}}, as a JAX-RS bean parameter. Each name of a claim route
 * is declared once, with the description the OpenAPI document gives it, in this class or in the one below it that adds
 * the next name: {@link RequestPath}, then {@link DriverPath} or {@link DevicePath}. A resource method takes the
 * class of its path and calls {@link #checked()} before it looks anything up.
 */
public class ClaimPath {

    @PathParam("claim")
    @Parameter(description = "Claim name (DNS subdomain)")
    String claim;

    /**
     * Checks every name of the path, in path order, as {@link PathNames} does: {@code 400 invalid-name} for the first
     * that is not valid.
     *
     * @return this path, every name of it valid
     */
    public ClaimPath checked() {
        PathNames.claim(claim);
        return this;
    }

    /** The claim name (for a template claim, the pod's claim name). */
    public String claim() {
        return claim;
    }
}
