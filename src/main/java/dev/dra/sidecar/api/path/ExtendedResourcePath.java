package dev.dra.sidecar.api.path;

import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The names in the path of a container's extended resource, {@code /extended-resources/{container}/{resource}}, as a
 * JAX-RS bean parameter. A resource name has a '/', so its template takes the rest of the path.
 *
 * @param container the container name as the path gives it
 * @param resource the extended resource name, such as {@code example.com/gpu}, as the path gives it
 */
public record ExtendedResourcePath(
        @PathParam("container") @Parameter(description = "Container name (DNS label)") String container,
        @PathParam("resource") @Parameter(description = "Extended resource name, such as example.com/gpu")
        String resource) {

    /**
     * Checks both names, in path order, as {@link PathNames} does: {@code 400 invalid-name} for the first that is not
     * valid.
     *
     * @return this path, both names valid
     */
    public ExtendedResourcePath checked() {
        PathNames.lookupKey("container name", container);
        PathNames.lookupKey("resource name", resource);
        return this;
    }
}
