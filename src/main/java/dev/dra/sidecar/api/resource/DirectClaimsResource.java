package dev.dra.sidecar.api.resource;

import dev.dra.sidecar.api.path.ApiRoutes;
import dev.dra.sidecar.snapshot.ClaimKind;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Claims the pod references by name ({@code resourceClaimName}). */
@Path(ApiRoutes.CLAIMS)
@Tag(name = "claims", description = "Claims referenced by name (resourceclaims/<claim>)")
public class DirectClaimsResource extends ClaimResources {

    @Override
    protected ClaimKind kind() {
        return ClaimKind.CLAIM;
    }
}
