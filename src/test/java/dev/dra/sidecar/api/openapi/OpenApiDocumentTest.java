package dev.dra.sidecar.api.openapi;

import static io.restassured.RestAssured.given;
import static java.util.Map.entry;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document the sidecar serves is the checked-in one, and the checked-in one is what the build generates.
 * When an API change makes {@link #checkedInDocumentsAreTheGeneratedOnes} fail, copy {@code target/openapi/*}
 * (written by the build) over {@code src/main/openapi/} and review the diff; {@code src/test/openapi/check.sh} then
 * lints it and compiles a generated client.
 */
@QuarkusTest
class OpenApiDocumentTest {

    private static final Path CHECKED_IN = Path.of("src/main/openapi");
    private static final Path GENERATED = Path.of("target/openapi");

    /** The management interface's port; random in tests, and Quarkus publishes the one it bound. */
    static String managementUrl(String path) {
        int port = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getValue("quarkus.management.test-port", Integer.class);
        return "http://localhost:" + port + path;
    }

    /** Written by this test run's build (quarkus.smallrye-openapi.store-schema-directory), compared as trees. */
    @Test
    void checkedInDocumentsAreTheGeneratedOnes() throws Exception {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        for (String name : new String[] {"openapi.yaml", "openapi.json"}) {
            assertEquals(yaml.readTree(Files.readString(GENERATED.resolve(name))),
                    yaml.readTree(Files.readString(CHECKED_IN.resolve(name))),
                    "src/main/openapi/" + name + " is out of date: copy target/openapi/" + name + " over it");
        }
    }

    @Test
    void servesTheCheckedInDocumentAsYamlOrJson() throws Exception {
        String yaml = Files.readString(CHECKED_IN.resolve("openapi.yaml"));
        String json = Files.readString(CHECKED_IN.resolve("openapi.json"));
        given().get(managementUrl("/q/openapi")).then().statusCode(200)
                .contentType("application/yaml;charset=UTF-8").body(equalTo(yaml));
        given().get(managementUrl("/q/openapi.yaml")).then().statusCode(200).body(equalTo(yaml));
        given().get(managementUrl("/q/openapi.yml")).then().statusCode(200).body(equalTo(yaml));
        given().accept("application/json").get(managementUrl("/q/openapi")).then().statusCode(200)
                .contentType("application/json;charset=UTF-8").body(equalTo(json));
        given().queryParam("format", "json").get(managementUrl("/q/openapi")).then().statusCode(200)
                .body(equalTo(json));
        given().get(managementUrl("/q/openapi.json")).then().statusCode(200).body(equalTo(json));
        given().head(managementUrl("/q/openapi")).then().statusCode(200)
                .header("Content-Length", String.valueOf(yaml.getBytes(StandardCharsets.UTF_8).length));
    }

    /**
     * The operationIds clients generate code from: set explicitly (ApiRoutes.ClaimRoute, ApiRoutes.PodRoute and ValidateResource), one per
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
                entry("get /claims/{claim}/{request}/attributes/{attribute}", "getClaimRequestAttribute"),
                entry("get /claims/{claim}/{request}/env", "getClaimEnv"),
                entry("get /devices", "listDevices"),
                entry("get /devices/attributes/{attribute}", "listDevicesAttribute"),
                entry("get /template-claims", "listTemplateClaims"),
                entry("get /template-claims/{claim}", "getTemplateClaim"),
                entry("get /template-claims/{claim}/{request}", "getTemplateClaimRequest"),
                entry("get /template-claims/{claim}/{request}/drivers/{driver}", "getTemplateClaimDriver"),
                entry("get /template-claims/{claim}/{request}/validation", "getTemplateClaimValidation"),
                entry("get /template-claims/{claim}/{request}/devices/{device}/attributes/{attribute}",
                        "getTemplateClaimAttribute"),
                entry("get /template-claims/{claim}/{request}/attributes/{attribute}", "getTemplateClaimRequestAttribute"),
                entry("get /template-claims/{claim}/{request}/env", "getTemplateClaimEnv"),
                entry("get /extended-resources", "listExtendedResources"),
                entry("get /extended-resources/{container}/{resource}", "getExtendedResource"),
                entry("post /validate", "validateStream"))), ids);
    }

    @Test
    void documentIsServedOnTheManagementInterfaceOnly() {
        given().get("/q/openapi").then().statusCode(404);
    }
}
