package dev.dra.sidecar.api.path;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dra.sidecar.api.path.ApiRoutes.ClaimRoute;
import dev.dra.sidecar.api.path.ApiRoutes.Match;
import dev.dra.sidecar.api.path.ApiRoutes.ClaimRoute;
import dev.dra.sidecar.api.path.ApiRoutes.Match;
import dev.dra.sidecar.snapshot.ClaimKind;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The route table read as data: what a path names, and the template metrics and OpenAPI show for it. */
class ApiRoutesTest {

    @Test
    void eachRouteMatchesItsPathsWithTheirParameters() {
        assertEquals(Optional.of(new Match(ClaimKind.CLAIM, ClaimRoute.INDEX, List.of())), ApiRoutes.match("/claims"));
        assertEquals(Optional.of(new Match(ClaimKind.TEMPLATE_CLAIM, ClaimRoute.CLAIM, List.of("my-gpu"))),
                ApiRoutes.match("/template-claims/my-gpu"));
        assertEquals(Optional.of(new Match(ClaimKind.CLAIM, ClaimRoute.REQUEST, List.of("c", "r"))),
                ApiRoutes.match("/claims/c/r"));
        assertEquals(Optional.of(new Match(ClaimKind.CLAIM, ClaimRoute.DRIVER, List.of("c", "r", "gpu.example.com"))),
                ApiRoutes.match("/claims/c/r/drivers/gpu.example.com"));
        assertEquals(Optional.of(new Match(ClaimKind.CLAIM, ClaimRoute.ATTRIBUTE,
                        List.of("c", "r", "gpu-0", "resource.kubernetes.io/pciBusID"))),
                ApiRoutes.match("/claims/c/r/devices/gpu-0/attributes/resource.kubernetes.io/pciBusID"));
        assertEquals(Optional.of(new Match(ClaimKind.CLAIM, ClaimRoute.REQUEST_ATTRIBUTE,
                        List.of("c", "r", "resource.kubernetes.io/pciBusID"))),
                ApiRoutes.match("/claims/c/r/attributes/resource.kubernetes.io/pciBusID"));
        assertEquals(Optional.of(new Match(ClaimKind.TEMPLATE_CLAIM, ClaimRoute.ENV, List.of("c", "r"))),
                ApiRoutes.match("/template-claims/c/r/env"));
    }

    @Test
    void anyOtherPathIsAbsent() {
        for (String path : List.of("", "/", "/validate", "/claimsx", "/claims/", "/claims//r", "/claims/c/r/",
                "/claims/c/r/drivers", "/claims/c/r/other/d", "/claims/c/r/drivers/d/x",
                "/claims/c/r/devices/d/attributes", "/claims/c/r/devices/d/attributes/",
                "/claims/c/r/attributes", "/claims/c/r/attributes/", "/claims/c/r/env/x", "/devices", "/q/health", "claims")) {
            assertEquals(Optional.empty(), ApiRoutes.match(path), path);
        }
    }

    @Test
    void templatesAreTheOpenApiPaths() {
        assertEquals("/claims", ClaimRoute.INDEX.template(ClaimKind.CLAIM));
        assertEquals("/template-claims/{claim}/{request}/drivers/{driver}", ClaimRoute.DRIVER.template(ClaimKind.TEMPLATE_CLAIM));
        assertEquals("/claims/{claim}/{request}/devices/{device}/attributes/{attribute}",
                ClaimRoute.ATTRIBUTE.template(ClaimKind.CLAIM));
        assertEquals("/template-claims/{claim}/{request}/attributes/{attribute}",
                ClaimRoute.REQUEST_ATTRIBUTE.template(ClaimKind.TEMPLATE_CLAIM));
        assertEquals("/devices/attributes/{attribute}", ApiRoutes.PodRoute.DEVICES_ATTRIBUTE.template());
        assertEquals("/devices", ApiRoutes.PodRoute.DEVICES.template());
    }
}
