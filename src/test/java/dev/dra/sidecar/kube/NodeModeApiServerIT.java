package dev.dra.sidecar.kube;

import static dev.dra.sidecar.kube.AgentRequests.as;
import static dev.dra.sidecar.kube.AgentRequests.problem;
import static dev.dra.sidecar.kube.ClusterPods.LOOPBACK;
import static dev.dra.sidecar.kube.InjectionPods.withClaims;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.Eventually;
import io.fabric8.kubernetes.api.model.Pod;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Node mode and its API server over the agent's life, in this order: the agent lists and watches its node's pods from
 * its start, before any request; without its own token it still serves every pod it knows, and answers
 * {@code 503 identity-unavailable} (a problem that says to retry, never a bare 500) only for a pod it would have to
 * ask about, until it has its token again; with the API server stopped for a minute it serves every pod it knows,
 * from tokens presented before and new ones, without waiting, and logs the episode once when it starts and once when
 * it ends.
 */
@QuarkusTest
@WithTestResource(value = NodeAgentCluster.class, initArgs = @ResourceArg(name = "state", value = "kube-apiserver-node-lifecycle"))
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NodeModeApiServerIT {

    /** How long the API server is stopped for. */
    private static final Duration OUTAGE = Duration.ofSeconds(60);
    /** How long a request may take during the outage: far below any call to the API server's bound. */
    private static final Duration ANSWERED_WITHIN = Duration.ofMillis(1000);
    private static final Pattern LASTED = Pattern.compile("after (\\d+\\.\\d) s in which it could not be reached");

    NodeCluster cluster;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    @TestHTTPResource(value = "/health/ready", management = true)
    URL ready;

    @BeforeEach
    void available() {
        NodeCluster.assumeAvailable(cluster);
    }

    @Test
    @Order(1)
    void theAgentWatchesItsNodesPodsBeforeAnyRequest() {
        Eventually.awaitTrue(Duration.ofSeconds(10), "the API server holds the agent's watch of its node's pods",
                () -> cluster.agentPodWatches() == 1);
        // Ready says so: a rollout stops the old agent only once the new one has listed the node's pods.
        given().get(ready).then().statusCode(200).body("checks.find { it.name == 'dra-metadata-present' }.data"
                + "['node-pods']", equalTo("listed"));
    }

    @Test
    @Order(2)
    void withoutItsOwnTokenTheAgentServesThePodsItKnowsAnd503sOneItMustAskAbout() {
        ClusterPods pods = cluster.pods();
        String namespace = pods.namespace("own-token");
        Pod known = pods.start(namespace, withClaims("known"), LOOPBACK);
        as(pods.token(known)).get("/claims").then().statusCode(200);
        String newToken = pods.token(known);
        Runnable putBack = cluster.hideAgentToken();
        Pod unknown;
        try {
            as(newToken).get("/claims").then().statusCode(200);
            // The watch ends with the API server, and cannot list again without the token: a pod started now is
            // one the agent does not know, and cannot look up.
            cluster.stopApiServer().run();
            unknown = pods.start(namespace, withClaims("unknown"), LOOPBACK);
            problem(as(pods.token(unknown)).get("/claims"), 503, "identity-unavailable").header("Retry-After", "1")
                    .body("detail", containsString("the agent's token"));
            as(newToken).get("/claims").then().statusCode(200);
        } finally {
            putBack.run();
        }
        as(pods.token(unknown)).get("/claims").then().statusCode(200);
    }

    @Test
    @Order(3)
    void withTheApiServerStoppedForAMinuteEveryKnownPodIsServedFromOldAndNewTokens() {
        ClusterPods pods = cluster.pods();
        String namespace = pods.namespace("outage");
        List<Pod> known = new ArrayList<>();
        List<String> presented = new ArrayList<>();
        List<String> early = new ArrayList<>();
        List<String> late = new ArrayList<>();
        for (String name : List.of("first", "second", "third")) {
            Pod pod = pods.start(namespace, withClaims(name), LOOPBACK);
            known.add(pod);
            presented.add(pods.token(pod));
            as(presented.get(presented.size() - 1)).get("/claims").then().statusCode(200);
            early.add(pods.token(pod));
            late.add(pods.token(pod));
        }
        long reviews = AgentCalls.of(metrics).of("create", "tokenreviews");

        long slowestNanos = 0;
        int answered = 0;
        try (CapturedLog log = new CapturedLog("dev.dra.sidecar")) {
            Runnable startAgain = cluster.stopApiServer();
            long stopped = System.nanoTime();
            try {
                for (int round = 0; System.nanoTime() - stopped < OUTAGE.toNanos(); round++) {
                    List<String> tokens = new ArrayList<>(presented);
                    if (round == 0) {
                        tokens.addAll(early); // new tokens, first presented as the outage starts
                    }
                    if (System.nanoTime() - stopped > OUTAGE.minusSeconds(5).toNanos() && !late.isEmpty()) {
                        tokens.addAll(late); // and others first presented as it ends
                        late.clear();
                    }
                    for (String token : tokens) {
                        long started = System.nanoTime();
                        Response response = as(token).get("/claims");
                        slowestNanos = Math.max(slowestNanos, System.nanoTime() - started);
                        response.then().statusCode(200);
                        answered++;
                    }
                    Eventually.pause(Duration.ofSeconds(2));
                }
                assertTrue(late.isEmpty(), "the late tokens were presented");
                given().get(ready).then().statusCode(200); // it still serves every pod it knows: still ready
                assertEquals(1, log.lines("WARN", "cannot be reached").size(), log.lines().toString());
                // Failed calls are not warned about one by one (that would be one a second per watch: 180 here);
                // a watch the API server refused as it shut down may still say so once.
                List<String> others = log.lines("WARN", "").stream()
                        .filter(line -> !line.contains("cannot be reached")).toList();
                assertTrue(others.size() <= 3, "one warning for the outage, none per call: " + others);
            } finally {
                startAgain.run();
            }
            List<String> ended = Eventually.await(Duration.ofSeconds(30), () -> log.lines("INFO", "answers again"),
                    lines -> !lines.isEmpty(), "the agent logs that the API server answers again");

            // The watch is back: a pod started now is served. The agent's calls answered since the first one that ended
            // the episode (its watches' lists, this pod's) log nothing more: the end is logged once, as the start was.
            Pod after = pods.start(namespace, withClaims("after"), LOOPBACK);
            as(pods.token(after)).get("/claims").then().statusCode(200);
            assertEquals(1, log.lines("INFO", "answers again").size(), log.lines().toString());
            assertEquals(1, log.lines("WARN", "cannot be reached").size(), log.lines().toString());
            Matcher lasted = LASTED.matcher(ended.get(0));
            assertTrue(lasted.find(), ended.get(0));
            assertTrue(Double.parseDouble(lasted.group(1)) >= OUTAGE.toSeconds(), ended.get(0));
            System.err.printf("API server stopped for %d s: %d requests of %d pods answered 200, the slowest in "
                    + "%d ms; %s%n", OUTAGE.toSeconds(), answered, known.size(), slowestNanos / 1_000_000, ended);
        }
        assertTrue(slowestNanos < ANSWERED_WITHIN.toNanos(), "slowest request " + slowestNanos / 1_000_000 + " ms");
        assertEquals(reviews, AgentCalls.of(metrics).of("create", "tokenreviews"), "no TokenReview");
    }
}
