package dev.dra.sidecar.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * What {@code ./mvnw quarkus:dev} runs with: the {@code dev} profile's settings, through the real server (on the test
 * ports). The management interface keeps off port 9000, where README says it is, and the Swagger UI's origin there
 * may call the API from the browser ("Try it out"), while no other origin may.
 */
@QuarkusTest
@TestProfile(DevModeSettingsTest.DevProfile.class)
class DevModeSettingsTest {

    public static class DevProfile implements QuarkusTestProfile {
        @Override
        public String getConfigProfile() {
            return "dev";
        }
    }

    /**
     * The dev profile's port as application.properties sets it: while a test runs, Quarkus puts the test port it
     * got into the configuration under the port's names, the profile's too.
     */
    private static final int managementPort = devManagementPort();

    @ConfigProperty(name = "quarkus.http.cors.origins")
    List<String> origins;

    private static int devManagementPort() {
        Properties properties = new Properties();
        try (var in = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Integer.parseInt(properties.getProperty("%dev.quarkus.management.port"));
    }

    @Test
    void theManagementInterfaceKeepsOffPort9000WhereTheReadmeSays() throws Exception {
        assertNotEquals(9000, managementPort);
        String readme = Files.readString(Path.of("README.md"));
        assertTrue(readme.contains("http://localhost:" + managementPort + "/q/swagger-ui"), "README names the dev-mode Swagger UI");
        given().get("/claims").then().statusCode(200).body("claims.name", hasItem("gpu-claim"));
    }

    @Test
    void theSwaggerUiOriginMayCallTheApi() {
        for (String host : new String[] {"localhost", "127.0.0.1"}) {
            String origin = "http://" + host + ":" + managementPort;
            assertTrue(origins.contains(origin), "CORS allows the management origin " + origin + ": " + origins);
            given().header("Origin", origin).header("Access-Control-Request-Method", "POST")
                    .header("Access-Control-Request-Headers", "content-type")
                    .options("/validate").then().statusCode(200)
                    .header("Access-Control-Allow-Origin", equalTo(origin));
            given().header("Origin", origin).get("/claims/gpu-claim/gpu").then().statusCode(200)
                    .header("Access-Control-Allow-Origin", equalTo(origin))
                    .header("Access-Control-Expose-Headers", containsString("ETag"));
        }
    }

    @Test
    void noOtherOriginMay() {
        given().header("Origin", "http://evil.example").get("/claims").then()
                .header("Access-Control-Allow-Origin", nullValue());
        given().header("Origin", "http://localhost:9000").get("/claims").then()
                .header("Access-Control-Allow-Origin", nullValue());
    }
}
