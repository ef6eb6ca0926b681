package dev.dra.sidecar.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The checked-in OpenAPI document is what the sidecar serves. When an API change makes this fail, copy
 * {@code target/openapi/openapi.yaml} (written by the build) to {@code src/main/openapi/openapi.yaml} and review
 * the diff; {@code src/test/openapi/check.sh} then lints it and compiles a generated client.
 */
@QuarkusTest
class OpenApiDocumentTest {

    /** The management interface's port; random in tests, and Quarkus publishes the one it bound. */
    static String managementUrl(String path) {
        int port = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getValue("quarkus.management.test-port", Integer.class);
        return "http://localhost:" + port + path;
    }

    @Test
    void servedDocumentIsTheCheckedInOne() throws Exception {
        String served = given().accept("application/yaml").get(managementUrl("/q/openapi")).then().statusCode(200).extract().asString();
        String stored = Files.readString(Path.of("src/main/openapi/openapi.yaml"));
        // Compared as trees: the build and the server may order keys differently.
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        assertEquals(yaml.readTree(stored), yaml.readTree(served),
                "src/main/openapi/openapi.yaml is out of date: copy target/openapi/openapi.yaml over it");
    }

    @Test
    void documentIsServedOnTheManagementInterfaceOnly() {
        given().get("/q/openapi").then().statusCode(404);
    }
}
