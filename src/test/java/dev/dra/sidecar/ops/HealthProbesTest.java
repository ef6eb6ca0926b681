package dev.dra.sidecar.ops;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.DeviceMetadataJson;
import dev.dra.sidecar.testsupport.Eventually;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The probes kubelet calls, through the management interface, as files arrive under the sidecar. */
@QuarkusTest
@TestProfile(OpsTestTree.class)
class HealthProbesTest {

    private static final String LATE = "resourceclaims/late-claim/gpu/gpu.example.com-metadata.json";

    @TestHTTPResource(value = "/health", management = true)
    URL health;

    private Response get(String probe) {
        return given().get(health + "/" + probe);
    }

    /**
     * A claim with nothing mounted for it cannot get metadata later (kubelet mounts a container's files when it makes
     * the container): the start goes on and the check says both causes; a file that is there but does not decode yet
     * holds it until it does.
     */
    @Test
    void anExpectedClaimWithNothingMountedLetsTheStartGoOnAFileThatDoesNotDecodeYetHoldsIt() {
        for (String probe : new String[] {"started", "ready"}) {
            get(probe).then().statusCode(200)
                    .body("status", equalTo("UP"))
                    .body("checks.find { it.name.startsWith('dra-metadata-present') }.data.'claims/late-claim/gpu'",
                            allOf(startsWith("absent: no metadata for claim late-claim"),
                                    containsString("does not list claim late-claim in its own resources.claims"),
                                    containsString("its driver writes no metadata file"),
                                    containsString("kubectl get resourceclaim late-claim")))
                    .body("checks.find { it.name.startsWith('dra-metadata-present') }.data.'claims/late-claim'",
                            containsString("does not list claim late-claim in its own resources.claims"))
                    .body("checks.find { it.name.startsWith('dra-metadata-present') }.data.'template-claims/my-gpu/gpu'", equalTo("ok"))
                    .body("checks.find { it.name.startsWith('dra-metadata-present') }.data.'template-claims/my-gpu'", equalTo("ok"))
                    .body("checks.find { it.name.startsWith('dra-metadata-present') }.data.'watch-mode'", equalTo("inotify"));
        }

        // The driver starts writing: a file cut short keeps the probe DOWN and says why.
        OpsTestTree.write(LATE, "{\"kind\":\"DeviceMetadata\",\"apiVersion\":");
        Response failing = Eventually.await(Duration.ofSeconds(20), () -> get("ready"),
                r -> r.path("checks.find { it.name.startsWith('dra-metadata-present') }.data.'claims/late-claim/gpu'")
                        .toString().startsWith("failing:"), "the cut-short file reported");
        assertEquals(503, failing.statusCode());
        String state = failing.path("checks.find { it.name.startsWith('dra-metadata-present') }.data.'claims/late-claim/gpu'");
        assertTrue(state.contains("malformed-stream") && state.contains(LATE), state);
        assertEquals(state, failing.path("checks.find { it.name.startsWith('dra-metadata-present') }.data.'claims/late-claim'"),
                "the whole claim fails with its failing request");

        OpsTestTree.write(LATE, DeviceMetadataJson.forClaim("late-claim").json());
        Eventually.await(Duration.ofSeconds(20), () -> get("ready").statusCode(), s -> s == 200, "ready UP");
        get("ready").then().body("status", equalTo("UP"))
                .body("checks.find { it.name.startsWith('dra-metadata-present') }.data.'claims/late-claim/gpu'", equalTo("ok"))
                .body("checks.find { it.name.startsWith('dra-metadata-present') }.data.'claims/late-claim'", equalTo("ok"));
        get("started").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void livenessIsUpAndSaysWhenTheLoopLastRan() {
        get("live").then().statusCode(200)
                .body("checks.find { it.name == 'dra-metadata-refresh' }.status", equalTo("UP"))
                .body("checks.find { it.name == 'dra-metadata-refresh' }.data.cycles", greaterThan(0));
    }

    /**
     * The liveness window, as docs/operations.md states it (the one place that does): a cycle under way for over
     * 60 s, whatever the intervals; the loop at rest is waiting, not in a cycle.
     */
    @Test
    void theLivenessWindowIsTheOneOperationsMdStates() throws Exception {
        assertTrue(Files.readString(Path.of("docs/operations.md")).contains(
                "has not been in one cycle for over 60 s (`window-ms`"), "docs/operations.md states the window");
        get("live").then().body("checks.find { it.name == 'dra-metadata-refresh' }.data.window-ms", equalTo(60_000))
                .body("checks.find { it.name == 'dra-metadata-refresh' }.data.cycle-under-way-ms", lessThan(60_000));
    }

    @Test
    void readinessIsNotOnTheApiPort() {
        // Probes and metrics live on the management interface only; the loopback API does not serve them.
        given().get("/q/health/ready").then().statusCode(404);
    }
}
