package dev.dra.sidecar.api.path;

import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/** The names in the path of a claim's request, {@code /<kind>/{claim}/{request}}: see {@link ClaimPath}. */
public class RequestPath extends ClaimPath {

    @PathParam("request")
    @Parameter(description = "Top-level request name (DNS label)")
    String request;

    @Override
    public RequestPath checked() {
        super.checked();
        PathNames.request(request);
        return this;
    }

    /** The top-level request name. */
    public String request() {
        return request;
    }
}
