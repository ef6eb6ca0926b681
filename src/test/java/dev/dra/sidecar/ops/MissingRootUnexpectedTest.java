package dev.dra.sidecar.ops;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URL;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The warning of docs/operations.md, "Debugging a pod": without expected claims, a sidecar that sees no metadata at
 * all is started and ready, so the app starts and finds nothing.
 */
@QuarkusTest
@TestProfile(MissingRootUnexpectedTest.NoRootNoExpectedClaims.class)
class MissingRootUnexpectedTest {

    public static class NoRootNoExpectedClaims implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("dra.metadata.root", OpsTestTree.NOT_MOUNTED.toString());
        }
    }

    @TestHTTPResource(value = "/health", management = true)
    URL health;

    @Test
    void startedAndReadyAreUpThoughNothingIsThere() {
        for (String probe : new String[] {"started", "ready"}) {
            given().get(health + "/" + probe).then().statusCode(200).body("status", equalTo("UP"));
        }
        given().get("/claims").then().statusCode(200).body("claims", empty());
        given().get("/template-claims").then().statusCode(200).body("claims", empty());
    }
}
