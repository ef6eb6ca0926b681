package dev.dra.sidecar.api.resource;

import dev.dra.sidecar.api.path.ApiRoutes;
import dev.dra.sidecar.snapshot.ClaimKind;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Claims generated from a ResourceClaimTemplate, keyed by the pod's claim name ({@code spec.resourceClaims[].name}). */
@Path(ApiRoutes.TEMPLATE_CLAIMS)
@Tag(name = "template-claims",
        description = "Claims generated from a ResourceClaimTemplate (resourceclaimtemplates/<podClaimName>)")
public class TemplateClaimsResource extends ClaimResources {

    @Override
    protected ClaimKind kind() {
        return ClaimKind.TEMPLATE_CLAIM;
    }
}
