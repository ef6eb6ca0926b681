package dev.dra.sidecar.kube;

import static dev.dra.sidecar.kube.AgentRequests.as;
import static dev.dra.sidecar.kube.ClusterPods.LOOPBACK;
import static dev.dra.sidecar.kube.InjectionPods.direct;
import static dev.dra.sidecar.kube.InjectionPods.template;
import static dev.dra.sidecar.kube.InjectionPods.withClaims;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.kube.ResourceObjects.Result;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.testsupport.Eventually;
import io.fabric8.kubernetes.api.model.Pod;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Node mode's resource-API source in process, against a real API server ({@link NodeAgentCluster}): a pod whose
 * driver wrote no metadata file gets what the cluster knows of its devices (the claim's allocation, the pool's
 * ResourceSlices, the claim's device status), marked as such, kept current like a file, and a file wins once there
 * is one. The slices and claims are made as a driver and the scheduler make them, through the API server.
 */
@QuarkusTest
@WithTestResource(value = NodeAgentCluster.class, initArgs = @ResourceArg(name = "state", value = "kube-apiserver-node-resource-api"))
class NodeModeResourceApiIT {

    /** How long the agent's watches may take to bring a change. */
    private static final Duration WATCH = Duration.ofSeconds(10);
    private static final String GPU_DRIVER = CdiClaims.DRIVER;
    private static final String NIC_DRIVER = "nic.example.com";
    private static final String META_START = "{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"metadata.resource.k8s.io/v1beta1\",";

    NodeCluster cluster;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metricsUrl;

    @BeforeEach
    void available() {
        NodeCluster.assumeAvailable(cluster);
    }

    @Test
    void aClaimWhoseDriverWroteNoFileIsServedFromItsAllocationItsSlicesAndItsStatus() {
        ResourceObjects resources = cluster.resources();
        ClusterPods pods = cluster.pods();
        String namespace = pods.namespace("derived");
        resources.slice("gpus-" + namespace, GPU_DRIVER, "pool-" + namespace, 1, gpu("gpu-0", "GPU-0a1b", 81920),
                gpu("gpu-1", "GPU-2c3d", 40960));
        Pod pod = pods.start(namespace, withClaims("reader", direct("gpu", "gpu-claim")), LOOPBACK);
        String token = pods.token(pod);
        resources.allocatedClaim(namespace, "gpu-claim", "", "reader", pod.getMetadata().getUid(),
                new Result("gpu", GPU_DRIVER, "pool-" + namespace, "gpu-1"));
        String uid = claimUid(namespace, "gpu-claim");

        Response derived = awaitAnswer(() -> as(token).get("/claims/gpu-claim/gpu"),
                r -> r.statusCode() == 200, "the agent serves the claim's devices from the resource API");
        assertEquals(META_START + "\"metadata\":{\"name\":\"gpu-claim\",\"namespace\":\"" + namespace
                + "\",\"uid\":\"" + uid + "\"},\"requests\":[{\"name\":\"gpu\",\"devices\":[{\"driver\":\""
                + GPU_DRIVER + "\",\"pool\":\"pool-" + namespace + "\",\"name\":\"gpu-1\",\"attributes\":"
                + "{\"driverVersion\":{\"version\":\"550.54.15\"},\"memory\":{\"int\":40960},\"uuid\":{\"string\":"
                + "\"GPU-2c3d\"}}}]}]}\n", derived.asString());
        assertEquals("resource-api", derived.header("Metadata-Source"));
        assertNull(derived.header("Metadata-Source-Version"), "no file, no apiVersion decoded");
        as(token).header("Accept", "text/plain").get("/claims/gpu-claim/gpu/devices/gpu-1/attributes/uuid").then()
                .statusCode(200).header("Metadata-Source", "resource-api").body(equalTo("GPU-2c3d\n"));
        as(token).get("/claims").then().statusCode(200).body("claims[0].derived", contains("gpu"));
        as(token).get("/claims/gpu-claim/gpu/validation").then().statusCode(200).body("valid", equalTo(false))
                .body("drivers[0].source", equalTo("resource-api"))
                .body("drivers[0].error.code", equalTo("derived-metadata"));

        // networkData written into the claim's status later, as a network driver does: a waiting long poll answers.
        String etag = derived.header("ETag");
        CompletableFuture<Response> poll = CompletableFuture.supplyAsync(() -> as(token).queryParam("waitForChange",
                "true").queryParam("lastEtag", etag).queryParam("timeoutSeconds", "30").get("/claims/gpu-claim/gpu"));
        resources.deviceStatus(namespace, "gpu-claim", "{\"driver\":\"" + GPU_DRIVER + "\",\"pool\":\"pool-"
                + namespace + "\",\"device\":\"gpu-1\",\"networkData\":{\"interfaceName\":\"net1\",\"ips\":"
                + "[\"192.0.2.7/24\"],\"hardwareAddress\":\"00:11:22:33:44:55\"}}");
        Response changed = poll.join();
        assertEquals(200, changed.statusCode());
        assertNotEquals(etag, changed.header("ETag"));
        assertEquals("net1", changed.jsonPath().getString("requests[0].devices[0].networkData.interfaceName"));
        assertEquals(List.of("192.0.2.7/24"), changed.jsonPath().getList("requests[0].devices[0].networkData.ips"));

        // The driver republishes its pool with a changed attribute: served as a change.
        resources.slice("gpus-" + namespace, GPU_DRIVER, "pool-" + namespace, 2, gpu("gpu-0", "GPU-0a1b", 81920),
                gpu("gpu-1", "GPU-2c3d", 98304));
        Response republished = awaitAnswer(() -> as(token).get("/claims/gpu-claim/gpu"),
                r -> "98304".equals(r.jsonPath().getString("requests[0].devices[0].attributes.memory.int")),
                "the agent serves the republished attribute");
        assertNotEquals(changed.header("ETag"), republished.header("ETag"));

        // A file appears for the request: it wins, byte for byte what the sidecar serves for it.
        CdiClaims.Prepared file = cluster.cdi().prepare(namespace, ClaimKind.CLAIM, "gpu-claim", "gpu-claim", "gpu",
                "from-file");
        Response filed = awaitAnswer(() -> as(token).get("/claims/gpu-claim/gpu"),
                r -> "file".equals(r.header("Metadata-Source")), "a file wins over the resource API");
        assertEquals(SidecarBodies.request(file), filed.asString());
        as(token).get("/claims").then().statusCode(200).body("claims[0].derived", equalTo(null));

        // The agent's calls to the API server, by verb, resource and outcome: the claims and slices are watched.
        String metrics = given().get(metricsUrl).asString();
        for (String watched : List.of("resourceclaims", "resourceslices", "pods")) {
            assertTrue(metrics.contains("dra_kube_api_requests_total{outcome=\"ok\",resource=\"" + watched
                    + "\",verb=\"watch\"}"), watched + " watched: " + metrics.lines()
                    .filter(line -> line.startsWith("dra_kube_api")).toList());
        }
    }

    /**
     * A pod of a namespace the agent has not watched claims in yet asks at once: its first request waits (boundedly)
     * for the source to list what its claims need, and is answered with them, not with a 404 to retry.
     */
    @Test
    void aPodAskingRightAfterItsClaimIsAllocatedIsAnsweredAtOnce() {
        ResourceObjects resources = cluster.resources();
        ClusterPods pods = cluster.pods();
        String namespace = pods.namespace("first");
        resources.slice("first-" + namespace, GPU_DRIVER, "first-" + namespace, 1, gpu("gpu-0", "GPU-f1r5", 1024));
        Pod pod = pods.start(namespace, withClaims("first", direct("gpu", "gpu-claim")), LOOPBACK);
        resources.allocatedClaim(namespace, "gpu-claim", "", "first", pod.getMetadata().getUid(),
                new Result("gpu", GPU_DRIVER, "first-" + namespace, "gpu-0"));
        as(pods.token(pod)).get("/claims/gpu-claim/gpu/devices/gpu-0/attributes/uuid").then().statusCode(200)
                .header("Metadata-Source", "resource-api").body("string", equalTo("GPU-f1r5"));
    }

    @Test
    void aRequestOfADriverWithAFileAndOneWithoutIsOneMergedRequest() {
        ResourceObjects resources = cluster.resources();
        ClusterPods pods = cluster.pods();
        String namespace = pods.namespace("mixed");
        resources.slice("nics-" + namespace, NIC_DRIVER, "nics-" + namespace, 1,
                "{\"name\":\"nic-0\",\"attributes\":{\"model\":{\"string\":\"CX-7\"}}}");
        Pod pod = pods.start(namespace, withClaims("mixed", direct("gpu", "gpu-claim")), LOOPBACK);
        String token = pods.token(pod);
        cluster.cdi().prepare(namespace, ClaimKind.CLAIM, "gpu-claim", "gpu-claim", "gpu", "filed");
        resources.allocatedClaim(namespace, "gpu-claim", "", "mixed", pod.getMetadata().getUid(),
                new Result("gpu", GPU_DRIVER, "node-a", "gpu-0"), new Result("gpu", NIC_DRIVER, "nics-" + namespace,
                        "nic-0"));

        Response merged = awaitAnswer(() -> as(token).get("/claims/gpu-claim/gpu"),
                r -> "file, resource-api".equals(r.header("Metadata-Source")),
                "the file's driver and the derived one, merged in byte order of their file names");
        List<Map<String, Object>> devices = merged.jsonPath().getList("requests[0].devices");
        assertEquals(List.of(GPU_DRIVER, NIC_DRIVER), devices.stream().map(d -> d.get("driver")).toList());
        assertEquals("filed", merged.jsonPath().getString("requests[0].devices[0].attributes.model.string"));
        assertEquals("CX-7", merged.jsonPath().getString("requests[0].devices[1].attributes.model.string"));
        assertEquals("metadata.resource.k8s.io/v1beta1", merged.header("Metadata-Source-Version"));
        as(token).get("/claims/gpu-claim/gpu/drivers/" + GPU_DRIVER).then().statusCode(200)
                .header("Metadata-Source", "file");
        as(token).get("/claims/gpu-claim/gpu/drivers/" + NIC_DRIVER).then().statusCode(200)
                .header("Metadata-Source", "resource-api");
    }

    @Test
    void aTemplateClaimOfAPoolThatIsNotTheNodesIsDerivedToo() {
        ResourceObjects resources = cluster.resources();
        ClusterPods pods = cluster.pods();
        String namespace = pods.namespace("fabric");
        String generated = "reader-nic-k2p7x";
        resources.sliceOfAllNodes("fabric-" + namespace, NIC_DRIVER, "fabric-" + namespace, 1,
                "{\"name\":\"port-3\",\"attributes\":{\"speed\":{\"int\":400}}}");
        Pod pod = pods.start(namespace, withClaims("reader", template("nic", "nic-template")), LOOPBACK,
                status -> status.addNewResourceClaimStatus().withName("nic").withResourceClaimName(generated)
                        .endResourceClaimStatus());
        resources.allocatedClaim(namespace, generated, "\"annotations\":{\"resource.kubernetes.io/pod-claim-name\":"
                + "\"nic\"}", "reader", pod.getMetadata().getUid(),
                new Result("nic", NIC_DRIVER, "fabric-" + namespace, "port-3"));

        Response derived = awaitAnswer(() -> as(pods.token(pod)).get("/template-claims/nic/nic"),
                r -> r.statusCode() == 200, "the agent serves the template claim from a pool of all nodes");
        assertEquals("nic", derived.jsonPath().getString("podClaimName"));
        assertEquals(generated, derived.jsonPath().getString("metadata.name"));
        assertEquals(400, derived.jsonPath().getInt("requests[0].devices[0].attributes.speed.int"));
    }

    /** The agent's answer once {@code done} holds for it, within {@link #WATCH}; a failure says what it answered last. */
    private static Response awaitAnswer(Supplier<Response> request, Predicate<Response> done, String what) {
        return Eventually.await(WATCH, () -> new Answer(request.get()), answer -> done.test(answer.response()), what)
                .response();
    }

    /** A response that says itself whole. */
    private record Answer(Response response) {
        @Override
        public String toString() {
            return response.statusCode() + " " + response.headers().asList() + " " + response.asString();
        }
    }

    private String claimUid(String namespace, String name) {
        return cluster.resources().uid(namespace, name);
    }

    private static String gpu(String name, String uuid, long memory) {
        return "{\"name\":\"" + name + "\",\"attributes\":{\"uuid\":{\"string\":\"" + uuid + "\"},\"memory\":{\"int\":"
                + memory + "},\"driverVersion\":{\"version\":\"550.54.15\"}}}";
    }
}
