package dev.dra.sidecar.ops;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URL;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** No metadata root at all: the classic mistake of a sidecar that does not list the claim in its resources.claims. */
@QuarkusTest
@TestProfile(MissingRootHealthTest.NoRoot.class)
class MissingRootHealthTest {

    public static class NoRoot implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("dra.metadata.root", OpsTestTree.NOT_MOUNTED.toString(), "dra.metadata.expected-claims", "claims/gpu-claim/gpu");
        }
    }

    /** The management root path ({@code /q}) is part of the URL already. */
    @TestHTTPResource(value = "/health", management = true)
    URL health;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    /**
     * Nothing is mounted: nothing can come later, so the app is let start, and both checks say why, with the two
     * causes a sidecar cannot tell apart.
     */
    @Test
    void startedAndReadyLetTheAppStartAndSayBothCauses() {
        for (String probe : new String[] {"started", "ready"}) {
            given().get(health + "/" + probe).then().statusCode(200)
                    .body("checks.find { it.name.startsWith('dra-metadata-present') }.data.problem", equalTo("metadata root "
                            + OpsTestTree.NOT_MOUNTED + " does not exist: no metadata file is mounted into this container"))
                    .body("checks.find { it.name.startsWith('dra-metadata-present') }.data.'claims/gpu-claim/gpu'",
                            allOf(startsWith("absent: "), containsString("resources.claims"),
                                    containsString("writes no metadata file")));
        }
    }

    @Test
    void livenessStaysUpBecauseTheLoopRuns() {
        given().get(health + "/live").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void metricsSayTheRootIsMissing() {
        given().get(metrics).then().statusCode(200)
                .body(containsString("dra_metadata_root_exists 0.0"));
    }
}
