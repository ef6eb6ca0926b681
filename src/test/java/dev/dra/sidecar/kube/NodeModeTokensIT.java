package dev.dra.sidecar.kube;

import static dev.dra.sidecar.kube.AgentRequests.as;
import static dev.dra.sidecar.kube.AgentRequests.problem;
import static dev.dra.sidecar.kube.ClusterPods.LOOPBACK;
import static dev.dra.sidecar.kube.InjectionPods.withClaims;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.Jws;
import io.fabric8.kubernetes.api.model.Pod;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Node mode's check of a pod's token against a real API server ({@link NodeAgentCluster}), counted by the agent's own
 * {@code dra_kube_api_requests_total}: a valid token, old or new, is accepted without any call (no TokenReview, no
 * pod lookup) once the issuer's keys are held and the watch knows the pod; a forged, altered or foreign token is
 * refused {@code invalid-token} without a call either; a token naming a key the agent does not hold makes it fetch
 * the issuer's keys again, at most once within the spacing.
 */
@QuarkusTest
@WithTestResource(value = NodeAgentCluster.class, initArgs = @ResourceArg(name = "state", value = "kube-apiserver-node-tokens"))
class NodeModeTokensIT {

    private static final Duration WAIT = Duration.ofSeconds(15);

    NodeCluster cluster;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    @BeforeEach
    void available() {
        NodeCluster.assumeAvailable(cluster);
        Eventually.awaitTrue(WAIT, "the agent holds the issuer's keys",
                () -> AgentCalls.of(metrics).counts().getOrDefault("get jwks ok", 0L) >= 1);
    }

    @Test
    void aValidTokenOldOrNewCostsNoCallToTheApiServer() {
        ClusterPods pods = cluster.pods();
        Pod pod = pods.start(pods.namespace("valid"), withClaims("valid"), LOOPBACK);
        String first = pods.token(pod);
        as(first).get("/claims").then().statusCode(200); // the pod is known from here on (watched, or fetched now)

        AgentCalls before = AgentCalls.of(metrics);
        for (int i = 0; i < 5; i++) {
            as(first).get("/claims").then().statusCode(200);
            as(pods.token(pod)).get("/claims").then().statusCode(200);
        }
        AgentCalls after = AgentCalls.of(metrics);
        assertEquals(before.requests(), after.requests(), "10 requests, 6 tokens: calls before " + before
                + ", after " + after);
        assertEquals(0, after.of("create", "tokenreviews"), after.toString());
    }

    @Test
    void forgedAlteredAndForeignTokensAreRefusedWithoutACall() {
        ClusterPods pods = cluster.pods();
        String namespace = pods.namespace("forged");
        Pod pod = pods.start(namespace, withClaims("target"), LOOPBACK);
        String genuine = pods.token(pod);
        as(genuine).get("/claims").then().statusCode(200);
        String kid = (String) Jws.part(genuine, 0).get("kid");
        Map<String, Object> claims = Jws.part(genuine, 1);

        AgentCalls before = AgentCalls.of(metrics);
        problem(as(Jws.rs256().sign(kid, claims)).get("/claims"), 401, "invalid-token")
                .body("detail", containsString("signature"));
        problem(as(Jws.es256().sign(kid, claims)).get("/claims"), 401, "invalid-token");
        Map<String, Object> other = new LinkedHashMap<>(claims);
        other.put("sub", "system:serviceaccount:" + namespace + ":default");
        problem(as(Jws.withClaims(genuine, other)).get("/claims"), 401, "invalid-token")
                .body("detail", containsString("signature"));
        Map<String, Object> none = new LinkedHashMap<>();
        none.put("alg", "none");
        none.put("kid", kid);
        String unsigned = Jws.rs256().sign(none, claims);
        problem(as(unsigned.substring(0, unsigned.lastIndexOf('.') + 1)).get("/claims"), 401, "invalid-token");
        problem(as(pods.token(pod, "another-audience")).get("/claims"), 401, "invalid-token")
                .body("detail", containsString("audience"));
        problem(as("not-a-token").get("/claims"), 401, "invalid-token");
        AgentCalls after = AgentCalls.of(metrics);
        assertEquals(before.requests(), after.requests(), "calls before " + before + ", after " + after);
        as(genuine).get("/claims").then().statusCode(200);
    }

    @Test
    void aTokenOfAKeyNotHeldFetchesTheKeysAgainAtMostOnceWithinTheSpacing() {
        ClusterPods pods = cluster.pods();
        Pod pod = pods.start(pods.namespace("kid"), withClaims("rotated"), LOOPBACK);
        Map<String, Object> claims = Jws.part(pods.token(pod), 1);
        Jws stranger = Jws.rs256();

        // The first fetch for an unknown kid may fall within the spacing of the fetch at start: ask until it comes.
        long jwks = AgentCalls.of(metrics).of("get", "jwks");
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (AgentCalls.of(metrics).of("get", "jwks") == jwks) {
            assertTrue(System.nanoTime() < deadline, "an unknown kid makes the agent fetch the issuer's keys again");
            problem(as(stranger.sign("not-the-issuers", claims)).get("/claims"), 401, "invalid-token")
                    .body("detail", containsString("kid not-the-issuers"));
            Eventually.pause(Duration.ofSeconds(1));
        }
        assertEquals(jwks + 1, AgentCalls.of(metrics).of("get", "jwks"));
        AgentCalls fetched = AgentCalls.of(metrics);
        problem(as(stranger.sign("another-unknown", claims)).get("/claims"), 401, "invalid-token");
        assertEquals(fetched.of("get", "jwks"), AgentCalls.of(metrics).of("get", "jwks"),
                "no second fetch within the spacing");
        assertEquals(0, AgentCalls.of(metrics).of("create", "tokenreviews"));
    }
}
