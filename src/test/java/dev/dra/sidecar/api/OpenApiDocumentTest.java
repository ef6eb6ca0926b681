package dev.dra.sidecar.api;

import static io.restassured.RestAssured.given;
import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
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

    /**
     * The operationIds clients generate code from: set explicitly (ApiRoutes.ClaimRoute and ValidateResource), one per
     * operation, and never renamed.
     */
    @Test
    void operationIdsAreThePublishedOnes() throws Exception {
        String served = given().accept("application/json").get(managementUrl("/q/openapi")).then().statusCode(200)
                .extract().asString();
        Map<String, String> ids = new TreeMap<>();
        new ObjectMapper().readTree(served).get("paths").properties().forEach(path -> path.getValue().properties()
                .forEach(op -> ids.put(op.getKey() + " " + path.getKey(), op.getValue().path("operationId").asText(null))));
        assertEquals(new TreeMap<>(Map.ofEntries(
                entry("get /claims", "listClaims"),
                entry("get /claims/{claim}", "getClaim"),
                entry("get /claims/{claim}/{request}", "getClaimRequest"),
                entry("get /claims/{claim}/{request}/drivers/{driver}", "getClaimDriver"),
                entry("get /claims/{claim}/{request}/validation", "getClaimValidation"),
                entry("get /claims/{claim}/{request}/devices/{device}/attributes/{attribute}",
                        "getClaimAttribute"),
                entry("get /template-claims", "listTemplateClaims"),
                entry("get /template-claims/{claim}", "getTemplateClaim"),
                entry("get /template-claims/{claim}/{request}", "getTemplateClaimRequest"),
                entry("get /template-claims/{claim}/{request}/drivers/{driver}", "getTemplateClaimDriver"),
                entry("get /template-claims/{claim}/{request}/validation", "getTemplateClaimValidation"),
                entry("get /template-claims/{claim}/{request}/devices/{device}/attributes/{attribute}",
                        "getTemplateClaimAttribute"),
                entry("post /validate", "validateStream"))), ids);
    }

    @Test
    void documentIsServedOnTheManagementInterfaceOnly() {
        given().get("/q/openapi").then().statusCode(404);
    }
}
