package dev.dra.sidecar.kube;

import static dev.dra.sidecar.kube.AgentRequests.as;
import static dev.dra.sidecar.kube.AgentRequests.problem;
import static dev.dra.sidecar.kube.ClusterPods.LOOPBACK;
import static dev.dra.sidecar.kube.InjectionPods.withClaims;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.dra.sidecar.testsupport.Eventually;
import io.fabric8.kubernetes.api.model.Pod;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Node mode and its API server over the agent's life, in this order: the agent lists and watches its node's pods from
 * its start, before any request; when it cannot ask the API server who is calling, a caller it would have to ask
 * about is answered {@code 503 identity-unavailable} (a problem that says to retry), never a bare 500, and the agent
 * answers again once it can ask: its own token unreadable, then the API server stopped for good, last (the fixture
 * cannot start it again at the same address with the same CA).
 */
@QuarkusTest
@TestProfile(NodeModeApiServerIT.Agent.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NodeModeApiServerIT {

    /** Node mode with an API server of this class's own, which it stops. */
    public static class Agent implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(NodeAgentCluster.class,
                    Map.of("state", "kube-apiserver-node-lifecycle")));
        }
    }

    NodeCluster cluster;

    @BeforeEach
    void available() {
        assertNotNull(cluster, "NodeAgentCluster gives the test its cluster");
        cluster.assumeAvailable();
    }

    @Test
    @Order(1)
    void theAgentWatchesItsNodesPodsBeforeAnyRequest() {
        Eventually.awaitTrue(Duration.ofSeconds(10), "the API server holds the agent's watch of its node's pods",
                () -> cluster.agentPodWatches() == 1);
    }

    @Test
    @Order(2)
    void withoutItsOwnTokenTheAgentAnswers503UntilItHasItAgain() {
        ClusterPods pods = cluster.pods();
        Pod pod = pods.start(pods.namespace("own-token"), withClaims("asker"), LOOPBACK);
        String token = pods.token(pod);
        Runnable putBack = cluster.hideAgentToken();
        try {
            problem(as(token).get("/claims"), 503, "identity-unavailable").header("Retry-After", "1")
                    .body("detail", containsString("the agent's token"));
        } finally {
            putBack.run();
        }
        as(token).get("/claims").then().statusCode(200);
    }

    @Test
    @Order(3)
    void withTheApiServerStoppedTheAgentAnswers503ForACallerItMustAskAbout() {
        ClusterPods pods = cluster.pods();
        String namespace = pods.namespace("stopped");
        Pod checked = pods.start(namespace, withClaims("checked"), LOOPBACK);
        String checkedToken = pods.token(checked);
        as(checkedToken).get("/claims").then().statusCode(200);
        String unchecked = pods.token(pods.start(namespace, withClaims("unchecked"), LOOPBACK));

        cluster.stopApiServer();
        problem(as(unchecked).get("/claims"), 503, "identity-unavailable").header("Retry-After", "1");
        // A caller whose verdict the agent holds, of a pod it knows, needs no question: it is still served.
        as(checkedToken).get("/claims").then().statusCode(200);
    }
}
