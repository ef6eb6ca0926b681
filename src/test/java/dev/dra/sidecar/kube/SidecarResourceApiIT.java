package dev.dra.sidecar.kube;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dra.sidecar.kube.ResourceObjects.Result;
import dev.dra.sidecar.testsupport.Eventually;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sidecar mode with the resource-API source on ({@link SidecarResourceApiCluster}): no driver wrote a file, and the
 * sidecar serves its expected claims from what the API server knows, with no more than the RBAC the docs write out;
 * a claim of the namespace it does not expect is not its to serve.
 */
@QuarkusTest
@WithTestResource(SidecarResourceApiCluster.class)
class SidecarResourceApiIT {

    private static final Duration WATCH = Duration.ofSeconds(10);
    private static final String DRIVER = "gpu.example.com";

    SidecarResourceApiCluster.Cluster cluster;

    @TestHTTPResource(value = "/health/started", management = true)
    URL started;

    @BeforeEach
    void available() {
        assertNotNull(cluster, "SidecarResourceApiCluster gives the test its cluster");
        assumeTrue(cluster.unavailable() == null, cluster.unavailable());
    }

    @Test
    void theExpectedClaimsAreServedFromTheResourceApiAndNothingElse() {
        String namespace = cluster.namespace();
        String podUid = cluster.pod().getMetadata().getUid();
        ResourceObjects resources = cluster.resources();
        resources.slice("gpus-" + namespace, DRIVER, "pool-" + namespace, 1,
                "{\"name\":\"gpu-0\",\"attributes\":{\"uuid\":{\"string\":\"GPU-5e7f\"},\"index\":{\"int\":0}}}",
                "{\"name\":\"nic-0\",\"attributes\":{\"speed\":{\"int\":400}}}",
                "{\"name\":\"gpu-9\"}");
        resources.allocatedClaim(namespace, "gpu-claim", "", SidecarResourceApiCluster.POD, podUid,
                new Result("gpu", DRIVER, "pool-" + namespace, "gpu-0"));
        resources.allocatedClaim(namespace, "reader-nic-x7k2p", "\"annotations\":{\"resource.kubernetes.io/pod-claim-"
                + "name\":\"nic\"},\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\""
                + SidecarResourceApiCluster.POD + "\",\"uid\":\"" + podUid + "\",\"controller\":true}]",
                SidecarResourceApiCluster.POD, podUid, new Result("nic", DRIVER, "pool-" + namespace, "nic-0"));
        resources.allocatedClaim(namespace, "not-expected", "", SidecarResourceApiCluster.POD, podUid,
                new Result("gpu", DRIVER, "pool-" + namespace, "gpu-9"));

        Response direct = Eventually.await(WATCH, () -> given().get("/claims/gpu-claim/gpu"),
                r -> r.statusCode() == 200, "the sidecar serves the direct claim from the resource API");
        assertEquals("resource-api", direct.header("Metadata-Source"));
        assertEquals("GPU-5e7f", direct.jsonPath().getString("requests[0].devices[0].attributes.uuid.string"));
        given().accept("text/plain").get("/claims/gpu-claim/gpu/attributes/uuid").then().statusCode(200)
                .body(equalTo("GPU-5e7f\n"));
        Response template = Eventually.await(WATCH, () -> given().get("/template-claims/nic/nic"),
                r -> r.statusCode() == 200, "the sidecar finds the pod's template claim by its owner and name");
        assertEquals("nic", template.jsonPath().getString("podClaimName"));
        assertEquals("reader-nic-x7k2p", template.jsonPath().getString("metadata.name"));
        assertEquals(400, template.jsonPath().getInt("requests[0].devices[0].attributes.speed.int"));

        given().get("/claims/not-expected/gpu").then().statusCode(404).body("code", equalTo("not-found"));
        given().get("/claims").then().statusCode(200).body("claims.name", equalTo(List.of("gpu-claim")))
                .body("claims[0].derived", equalTo(List.of("gpu")));
        given().get(started.toString()).then().statusCode(200)
                .body("checks.find { it.name.startsWith('dra-metadata-present') }.data.'claims/gpu-claim'",
                        equalTo("ok"))
                .body("checks.find { it.name.startsWith('dra-metadata-present') }.data.'template-claims/nic/nic'",
                        equalTo("ok"));
        given().get("/claims/gpu-claim/gpu/validation").then().statusCode(200)
                .body("drivers[0].error.detail", containsString("there is no file to validate"));
    }
}
