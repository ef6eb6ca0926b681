package dev.dra.sidecar.kube;

import static dev.dra.sidecar.kube.AgentRequests.as;
import static dev.dra.sidecar.kube.AgentRequests.problem;
import static dev.dra.sidecar.kube.ClusterPods.LOOPBACK;
import static dev.dra.sidecar.kube.InjectionPods.direct;
import static dev.dra.sidecar.kube.InjectionPods.template;
import static dev.dra.sidecar.kube.InjectionPods.withClaims;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.testsupport.Eventually;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Node mode in process, against a real API server ({@link NodeAgentCluster}): the agent serves a pod of its node
 * that pod's own claims (a claim, a template claim and an extended resource) with the bodies the sidecar serves for
 * the same files, and refuses every other caller with docs/node-mode.md's problem. The pods are bound to the node at
 * creation and given the status their kubelet and the DRA controllers would report, with the address 127.0.0.1 that
 * the requests here come from.
 */
@QuarkusTest
@WithTestResource(value = NodeAgentCluster.class, initArgs = @ResourceArg(name = "state", value = "kube-apiserver-node-api"))
class NodeModeApiIT {

    private static final String GPU = "example.com/gpu";
    private static final String EXTENDED_REQUEST = "container-0-request-0";
    /** How long the agent's watch may take to bring a change of a pod. */
    private static final Duration WATCH = Duration.ofSeconds(10);

    NodeCluster cluster;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    /**
     * A pod with the claim {@code gpu-claim} (pod claim {@code gpu}), a claim from a template (pod claim
     * {@code tpl}) and one {@value #GPU} in container {@code app} as an extended resource, each with its file, and
     * its token.
     */
    private record Reader(Pod pod, String token, CdiClaims.Prepared direct, CdiClaims.Prepared template,
            CdiClaims.Prepared extended) {}

    @BeforeEach
    void available() {
        NodeCluster.assumeAvailable(cluster);
    }

    @Test
    void aPodReadsItsOwnClaimsAsTheSidecarServesTheirFiles() {
        String namespace = cluster.pods().namespace("reads");
        Reader reader = reader(namespace, "reader", "A");
        as(reader.token()).get("/claims/gpu-claim/gpu").then().statusCode(200).contentType("application/json")
                .body(equalTo(SidecarBodies.request(reader.direct())));
        as(reader.token()).get("/template-claims/tpl/gpu").then().statusCode(200)
                .body(equalTo(SidecarBodies.request(reader.template())));
        as(reader.token()).get("/extended-resources/app/" + GPU).then().statusCode(200)
                .body(equalTo(SidecarBodies.request(reader.extended())));
        as(reader.token()).get("/extended-resources").then().statusCode(200)
                .body("containers.name", contains("app"))
                .body("containers[0].resources.name", contains(GPU))
                .body("containers[0].resources.claim", contains(reader.extended().directory()))
                .body("containers[0].resources.request", contains(EXTENDED_REQUEST));
        as(reader.token()).get("/claims").then().statusCode(200)
                .body("claims.name", contains("gpu-claim", reader.extended().directory()));
        as(reader.token()).get("/template-claims").then().statusCode(200).body("claims.name", contains("tpl"));

        // A claim of the same name in another namespace is its own pod's, and only that pod's.
        String elsewhere = cluster.pods().namespace("reads");
        Reader twin = reader(elsewhere, "twin", "B");
        as(twin.token()).get("/claims/gpu-claim/gpu").then().statusCode(200)
                .body(equalTo(SidecarBodies.request(twin.direct()))).body(containsString("\"B-direct\""));
        as(reader.token()).get("/claims/gpu-claim/gpu").then().statusCode(200)
                .body(containsString("\"A-direct\""));
    }

    @Test
    void refusesACallerThatIsNotAPodOfTheNodeAtItsOwnAddress() {
        ClusterPods pods = cluster.pods();
        String namespace = pods.namespace("refusals");
        Pod plain = pods.start(namespace, withClaims("plain"), LOOPBACK);
        as(pods.token(plain)).get("/claims").then().statusCode(200);

        problem(given().get("/claims"), 401, "missing-token").header("WWW-Authenticate", "Bearer");
        problem(as(pods.token(plain, "another-audience")).get("/claims"), 401, "invalid-token");
        problem(as("not-a-token").get("/claims"), 401, "invalid-token");

        Pod otherNode = pods.start(namespace, new PodBuilder(withClaims("other-node")).editSpec()
                .withNodeName("node-b").endSpec().build(), LOOPBACK);
        problem(as(pods.token(otherNode)).get("/claims"), 403, "pod-not-on-node");

        Pod hostNetwork = pods.start(namespace, new PodBuilder(withClaims("host-network")).editSpec()
                .withHostNetwork(true).endSpec().build(), LOOPBACK);
        problem(as(pods.token(hostNetwork)).get("/claims"), 403, "peer-not-allowed");

        Pod elsewhere = pods.start(namespace, withClaims("elsewhere"), "10.244.0.7");
        problem(as(pods.token(elsewhere)).get("/claims"), 403, "peer-not-allowed");
    }

    @Test
    void anotherPodsClaimIsAnsweredAsOneThatDoesNotExist() {
        ClusterPods pods = cluster.pods();
        String namespace = pods.namespace("not-own");
        Reader reader = reader(namespace, "reader", "A");
        Pod other = pods.start(namespace, withClaims("other", direct("gpu", "other-claim"),
                template("tpl", "gpu-template")), LOOPBACK, status -> status.addNewResourceClaimStatus()
                .withName("tpl").withResourceClaimName("other-tpl-q8z4m").endResourceClaimStatus());
        cluster.cdi().prepare(namespace, ClaimKind.CLAIM, "other-claim", "other-claim", "gpu", "other");
        as(pods.token(other)).get("/claims/other-claim/gpu").then().statusCode(200);

        Response existing = as(reader.token()).get("/claims/other-claim/gpu");
        Response missing = as(reader.token()).get("/claims/no-such-claim/gpu");
        problem(existing, 404, "not-own-claim");
        problem(missing, 404, "not-own-claim");
        assertEquals(existing.jsonPath().getString("detail").replace("other-claim", "<claim>"),
                missing.jsonPath().getString("detail").replace("no-such-claim", "<claim>"),
                "one answer whether the claim exists or not");
        problem(as(reader.token()).get("/claims/other-claim"), 404, "not-own-claim");
        problem(as(reader.token()).get("/template-claims/no-such-tpl/gpu"), 404, "not-own-claim");
        problem(as(reader.token()).get("/extended-resources/app/example.com/fpga"), 404, "not-own-claim");
        problem(as(reader.token()).get("/extended-resources/sidecar/" + GPU), 404, "not-own-claim");
    }

    @Test
    void aPodsVeryFirstRequestIsAnsweredWithItsClaim() {
        ClusterPods pods = cluster.pods();
        String namespace = pods.namespace("first");
        Pod late = pods.start(namespace, withClaims("late", direct("gpu", "late-claim")), LOOPBACK);
        CdiClaims.Prepared file = cluster.cdi().prepare(namespace, ClaimKind.CLAIM, "late-claim", "late-claim",
                "gpu", "late");
        as(pods.token(late)).get("/claims/late-claim/gpu").then().statusCode(200)
                .body(equalTo(SidecarBodies.request(file)));
    }

    /**
     * A pod whose kubelet has not reported its address yet: with the agent's watch open, its request waits on the watch
     * and asks the API server nothing (at most the one fetch of a pod the watch had not brought when it asked); it is
     * refused after the 10 s wait when no address comes (counted in {@code dra_node_address_wait_seconds}), and
     * answered once one has.
     */
    @Test
    void aPodWithoutAnAddressYetWaitsOnTheWatchAndAsksTheApiServerNothing() {
        ClusterPods pods = cluster.pods();
        String namespace = pods.namespace("unaddressed");
        Pod pod = pods.start(namespace, withClaims("unaddressed", direct("gpu", "unaddressed-claim")), LOOPBACK,
                status -> status.withPodIP(null).withPodIPs(List.of()));
        CdiClaims.Prepared file = cluster.cdi().prepare(namespace, ClaimKind.CLAIM, "unaddressed-claim",
                "unaddressed-claim", "gpu", "unaddressed");
        String token = pods.token(pod);
        long before = AgentCalls.of(metrics).of("get", "pods");
        double[] waitsBefore = addressWaits();
        problem(as(token).get("/claims/unaddressed-claim/gpu"), 403, "peer-not-allowed");
        double[] waits = addressWaits();
        assertEquals(waitsBefore[0] + 1, waits[0], "one request waited for its pod's address");
        assertTrue(waits[1] - waitsBefore[1] >= 10, "for the whole 10 s: " + (waits[1] - waitsBefore[1]) + " s");
        pods.address(pod, LOOPBACK);
        Eventually.await(WATCH, () -> as(token).get("/claims/unaddressed-claim/gpu"), r -> r.statusCode() == 200,
                "answered once its address is reported").then().body(equalTo(SidecarBodies.request(file)));
        long asked = AgentCalls.of(metrics).of("get", "pods") - before;
        assertTrue(asked <= 1, "pods fetched while the watch was open: " + asked);
    }

    /** {@code dra_node_address_wait_seconds}' count and sum now. */
    private double[] addressWaits() {
        double[] waits = new double[2];
        given().get(metrics).asString().lines().forEach(line -> {
            if (line.startsWith("dra_node_address_wait_seconds_count ")) {
                waits[0] = Double.parseDouble(line.substring(line.indexOf(' ') + 1));
            } else if (line.startsWith("dra_node_address_wait_seconds_sum ")) {
                waits[1] = Double.parseDouble(line.substring(line.indexOf(' ') + 1));
            }
        });
        return waits;
    }

    @Test
    void aDeletedPodsTokenIsRefused() {
        ClusterPods pods = cluster.pods();
        String namespace = pods.namespace("deleted");
        Pod gone = pods.start(namespace, withClaims("gone"), LOOPBACK);
        String checked = pods.token(gone);
        String unchecked = pods.token(gone);
        as(checked).get("/claims").then().statusCode(200);

        AgentCalls before = AgentCalls.of(metrics);
        pods.delete(gone);
        // The token still verifies; the pod it names is gone once the watch says so, and the agent asks nobody.
        Response refused = Eventually.await(WATCH, () -> as(checked).get("/claims"), r -> r.statusCode() != 200,
                "the agent refuses the token of a deleted pod");
        problem(refused, 403, "pod-not-on-node").body("detail", containsString("it is gone"));
        problem(as(unchecked).get("/claims"), 403, "pod-not-on-node");
        AgentCalls after = AgentCalls.of(metrics);
        assertEquals(before.requests(), after.requests(), "calls before " + before + ", after " + after);

        // A new pod of the same name is another pod: the old token is not its.
        Pod again = pods.start(namespace, withClaims("gone"), LOOPBACK);
        as(pods.token(again)).get("/claims").then().statusCode(200);
        problem(as(checked).get("/claims"), 403, "pod-not-on-node");
    }

    /**
     * {@link Reader} {@code name} in {@code namespace}; the model of each of its devices is
     * {@code <model>-direct}, {@code <model>-template} and {@code <model>-extended}.
     */
    private Reader reader(String namespace, String name, String model) {
        String generated = name + "-tpl-x7k2p";
        String extendedClaim = name + "-extended-resources-k2p7x";
        Container app = new ContainerBuilder(InjectionPods.app("app", "gpu", "tpl")).editResources()
                .withLimits(Map.of(GPU, new Quantity("1"))).endResources().build();
        Pod pod = cluster.pods().start(namespace, InjectionPods.pod(name,
                List.of(direct("gpu", "gpu-claim"), template("tpl", "gpu-template")), List.of(), List.of(app)),
                LOOPBACK, status -> status
                        .addNewResourceClaimStatus().withName("tpl").withResourceClaimName(generated)
                        .endResourceClaimStatus()
                        .withNewExtendedResourceClaimStatus().withResourceClaimName(extendedClaim)
                        .addNewRequestMapping().withContainerName("app").withResourceName(GPU)
                        .withRequestName(EXTENDED_REQUEST).endRequestMapping()
                        .endExtendedResourceClaimStatus());
        CdiClaims cdi = cluster.cdi();
        return new Reader(pod, cluster.pods().token(pod),
                cdi.prepare(namespace, ClaimKind.CLAIM, "gpu-claim", "gpu-claim", "gpu", model + "-direct"),
                cdi.prepare(namespace, ClaimKind.TEMPLATE_CLAIM, "tpl", generated, "gpu", model + "-template"),
                cdi.prepare(namespace, ClaimKind.CLAIM, extendedClaim, extendedClaim, EXTENDED_REQUEST,
                        model + "-extended"));
    }
}
