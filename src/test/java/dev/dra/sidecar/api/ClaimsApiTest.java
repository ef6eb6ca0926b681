package dev.dra.sidecar.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every row of the HTTP contract for reading, through the real server. */
@QuarkusTest
@TestProfile(ApiTestTree.class)
class ClaimsApiTest {

    private static final String PROBLEM = "application/problem+json";

    @Test
    void listsDirectClaimsSortedWithTheirRequests() {
        given().get("/claims").then().statusCode(200)
                .contentType("application/json")
                .header("ETag", startsWith("\""))
                .body("claims.name", contains("badtime", "badtype", "blank", "breaking", "changing", "empty", "emptyobj",
                        "fieldsv1", "lists", "multi", "multibad", "my-claim", "nokind", "notjson", "noversion",
                        "nullzero", "onlyunknown", "oracle", "repeatedkeys", "trailing", "truncated", "twins", "unknownnokind",
                        "unknownthenbad", "upstream-head", "upstream-v1-36"))
                .body("claims.find { it.name == 'my-claim' }.requests", contains("gpu", "gpu-request"));
    }

    @Test
    void listsTemplateClaimsByPodClaimName() {
        given().get("/template-claims").then().statusCode(200)
                .body("claims.name", contains("gpu"))
                .body("claims[0].requests", contains("gpu"));
    }

    @Test
    void servesTheMergedRequestAsV1beta1WithTheSourceVersions() {
        given().get("/claims/multi/gpu").then().statusCode(200)
                .header("Metadata-Source-Version",
                        "metadata.resource.k8s.io/v1beta1, metadata.resource.k8s.io/v1beta1")
                .body("apiVersion", equalTo("metadata.resource.k8s.io/v1beta1"))
                .body("kind", equalTo("DeviceMetadata"))
                .body("metadata.name", equalTo("multi"))
                .body("metadata", not(hasKey("generation")))
                .body("requests[0].devices.name", contains("a-0", "b-0", "b-1"));
    }

    @Test
    void relabelsAV1alpha1FileAndSaysSo() {
        given().get("/claims/upstream-v1-36/request").then().statusCode(200)
                .header("Metadata-Source-Version", "metadata.resource.k8s.io/v1alpha1")
                .body("apiVersion", equalTo("metadata.resource.k8s.io/v1beta1"));
    }

    @Test
    void keepsInt64ValuesExact() {
        given().get("/claims/lists/gpu").then().statusCode(200)
                .body(containsString("9007199254740993"));
    }

    @Test
    void servesOneDriverWithAllItsMetadata() {
        given().get("/claims/upstream-head/request/drivers/gpu.example.com").then().statusCode(200)
                .body("metadata.generation", equalTo(7))
                .body("metadata.managedFields[0].manager", equalTo("managerValue"))
                .body("podClaimName", equalTo("<no json tag> PodClaimNameValue"));
    }

    @Test
    void servesAClaimWithEveryRequest() {
        given().get("/claims/my-claim").then().statusCode(200)
                .body("name", equalTo("my-claim"))
                .body("requests.requests.name.flatten()", contains("gpu", "gpu-request"));
    }

    @Test
    void servesTemplateClaimsTheSameWay() {
        given().get("/template-claims/gpu/gpu").then().statusCode(200)
                .body("podClaimName", equalTo("gpu"));
        given().get("/template-claims/gpu/gpu/drivers/gpu.example.com").then().statusCode(200)
                .body("metadata.generation", equalTo(1));
        given().get("/template-claims/gpu").then().statusCode(200).body("name", equalTo("gpu"));
    }

    @Test
    void servesAnAttributeAsTypedJson() {
        given().get("/template-claims/gpu/gpu/devices/gpu-0/attributes/index").then().statusCode(200)
                .contentType("application/json")
                .header("ETag", notNullValue())
                .body("int", equalTo(0));
    }

    @Test
    void servesAQualifiedAttributeName() {
        given().get("/claims/lists/gpu/devices/gpu-0/attributes/resource.kubernetes.io/pciBusID").then()
                .statusCode(200).body("string", equalTo("0000:00:01.0"));
    }

    @Test
    void servesBareValuesAsTextWithListsOnePerLine() {
        given().accept("text/plain").get("/claims/lists/gpu/devices/gpu-0/attributes/cores").then()
                .statusCode(200).contentType(containsString("text/plain"))
                .body(equalTo("1\n2\n9007199254740993\n"));
        given().accept("text/plain").get("/claims/lists/gpu/devices/gpu-0/attributes/resource.kubernetes.io/pciBusID")
                .then().statusCode(200).body(equalTo("0000:00:01.0\n"));
    }

    @Test
    void asksWhichDeviceWhenTwoShareAName() {
        given().get("/claims/twins/gpu/devices/gpu-0/attributes/model").then().statusCode(409)
                .contentType(PROBLEM)
                .body("code", equalTo("ambiguous-device"))
                .body("detail", containsString("driver=a.example.com pool=pool-a"));
        given().queryParam("driver", "b.example.com").get("/claims/twins/gpu/devices/gpu-0/attributes/model")
                .then().statusCode(200).body("string", equalTo("B"));
        given().queryParam("pool", "pool-a").get("/claims/twins/gpu/devices/gpu-0/attributes/model")
                .then().statusCode(200).body("string", equalTo("A"));
    }

    @Test
    void answersNotModifiedForAMatchingETag() {
        String etag = given().get("/claims/multi/gpu").then().statusCode(200).extract().header("ETag");
        given().header("If-None-Match", etag).get("/claims/multi/gpu").then().statusCode(304)
                .header("ETag", etag).body(equalTo(""));
        given().header("If-None-Match", "\"other\", " + etag).get("/claims/multi/gpu").then().statusCode(304);
        given().header("If-None-Match", "\"other\"").get("/claims/multi/gpu").then().statusCode(200);
    }

    @Test
    void answersNotFoundForWhatIsNotThere() {
        given().get("/claims/nope").then().statusCode(404).contentType(PROBLEM).body("code", equalTo("not-found"))
                .body("detail", containsString("resources.claims"));
        given().get("/claims/multi/nope").then().statusCode(404).body("code", equalTo("not-found"));
        given().get("/claims/multi/gpu/drivers/c.example.com").then().statusCode(404).body("code", equalTo("not-found"));
        given().get("/claims/lists/gpu/devices/gpu-9/attributes/cores").then().statusCode(404);
        given().get("/claims/lists/gpu/devices/gpu-0/attributes/nope").then().statusCode(404)
                .body("code", equalTo("not-found"));
        given().get("/nothing/here").then().statusCode(404).contentType(PROBLEM).body("code", equalTo("not-found"));
    }

    /** A client that starts at the top is told where the API is: its resources and its description. */
    @Test
    void theRootPointsToTheResourcesAndTheOpenApiDocument() {
        given().get("/").then().statusCode(404).contentType(PROBLEM).body("code", equalTo("not-found"))
                .body("detail", containsString("GET /claims, GET /template-claims and GET /devices"))
                .body("detail", containsString("POST /validate"))
                .body("detail", containsString("/q/openapi on the management port"));
    }

    /** CORS is dev mode's alone (DevModeSettingsTest): outside it, no page of another origin may read the API. */
    @Test
    void noOriginMayReadTheApiFromABrowser() {
        given().header("Origin", "http://localhost:9089").get("/claims").then().statusCode(200)
                .header("Access-Control-Allow-Origin", nullValue());
    }

    @Test
    void refusesInvalidNamesBeforeLookingAnythingUp() {
        given().get("/claims/Multi/gpu").then().statusCode(400).contentType(PROBLEM)
                .body("code", equalTo("invalid-name")).body("status", equalTo(400));
        given().get("/claims/multi/gpu_1").then().statusCode(400).body("code", equalTo("invalid-name"));
        given().get("/claims/multi/gpu/drivers/bad_driver").then().statusCode(400).body("code", equalTo("invalid-name"));
        given().urlEncodingEnabled(false).get("/claims/..%2F..%2Fetc/gpu").then().statusCode(org.hamcrest.Matchers.oneOf(400, 404));
    }

    @Test
    void servesDecodeFailuresAsProblemsWithTheirCodes() {
        given().get("/claims/badtype/r").then().statusCode(502).contentType(PROBLEM)
                .body("code", equalTo("invalid-object")).header("Retry-After", nullValue());
        given().get("/claims/onlyunknown/r").then().statusCode(502).body("code", equalTo("no-compatible-version"))
                .body("detail", containsString("metadata.k8s.io/v99, metadata.k8s.io/v100"));
        given().get("/claims/empty/r").then().statusCode(503).body("code", equalTo("no-metadata-objects"))
                .header("Retry-After", "1");
        given().get("/claims/multibad/gpu").then().statusCode(503).body("code", equalTo("malformed-stream"))
                .body("detail", containsString("b.example.com-metadata.json"));
        given().get("/claims/multibad").then().statusCode(503).body("code", equalTo("malformed-stream"));
        given().get("/claims/multibad/gpu/drivers/a.example.com").then().statusCode(200);
    }

    @Test
    void refusesForeignHostHeaders() {
        given().header("Host", "attacker.example").get("/claims").then().statusCode(400).contentType(PROBLEM)
                .body("code", equalTo("invalid-host"));
        given().header("Host", "localhost:8089:1").get("/claims").then().statusCode(400);
        given().header("Host", "localhost").get("/claims").then().statusCode(200);
        given().header("Host", "127.0.0.1:8089").get("/claims").then().statusCode(200);
        given().header("Host", "[::1]:8089").get("/claims").then().statusCode(200);
    }

    @Test
    void declinesTheHttp2UpgradeOfClientsThatAskAndAnswersOverHttp11() throws Exception {
        // The JDK client's default is HTTP/2, asked for by an h2c upgrade; the API speaks HTTP/1.1 only, so that every
        // connection counts against quarkus.http.limits.max-connections from the moment it is accepted.
        var client = java.net.http.HttpClient.newHttpClient();
        var response = client.send(java.net.http.HttpRequest.newBuilder(base.resolve("/claims/multi/gpu")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        org.junit.jupiter.api.Assertions.assertEquals(200, response.statusCode(), response.body());
        org.junit.jupiter.api.Assertions.assertEquals(java.net.http.HttpClient.Version.HTTP_1_1, response.version());
    }

    @io.quarkus.test.common.http.TestHTTPResource("/")
    java.net.URI base;

    @Test
    void fastReadsAnswerExactlyAsTheResourcesDo() {
        // Plain reads are served by FastReadHandler; any query parameter sends them through the JAX-RS resources.
        for (String path : List.of("/claims", "/template-claims", "/claims/multi", "/claims/multi/gpu",
                "/claims/multi/gpu/drivers/b.example.com", "/template-claims/gpu/gpu", "/claims/breaking/gpu")) {
            io.restassured.response.Response fast = given().get(path);
            io.restassured.response.Response resource = given().queryParam("waitForChange", "false").get(path);
            assertEquals(resource.statusCode(), fast.statusCode(), path);
            assertEquals(resource.asString(), fast.asString(), path);
            for (String header : List.of("ETag", "Metadata-Source-Version", "Warning")) {
                assertEquals(resource.header(header), fast.header(header), path + " " + header);
            }
            assertEquals(resource.contentType(), fast.contentType(), path);
        }
    }

    @Test
    void fastReadsLeaveContentNegotiationToTheResources() {
        given().accept("image/png").get("/claims/multi/gpu").then().statusCode(406).contentType(PROBLEM);
        given().header("Accept", "text/html, */*;q=0.1").get("/claims/multi/gpu").then().statusCode(200);
    }

    @Test
    void refusesOtherMethodsWithAProblem() {
        given().delete("/claims/multi/gpu").then().statusCode(405).contentType(PROBLEM)
                .body("code", equalTo("method-not-allowed")).header("Allow", "GET, HEAD");
        given().head("/claims/multi/gpu").then().statusCode(200).header("ETag", notNullValue());
        given().get("/validate").then().statusCode(405).header("Allow", "POST");
    }

    @Test
    void refusesBadLongPollParameters() {
        given().queryParam("waitForChange", "maybe").get("/claims").then().statusCode(400)
                .body("code", equalTo("invalid-parameter"));
        given().queryParam("waitForChange", "true").queryParam("timeoutSeconds", "301").get("/claims").then()
                .statusCode(400).body("code", equalTo("invalid-parameter"));
        given().queryParam("waitForChange", "true").queryParam("timeoutSeconds", "x").get("/claims").then()
                .statusCode(400);
    }

    /** As docs/api.md says: an empty waitForChange or timeoutSeconds is a bad value, an empty lastEtag names no ETag. */
    @Test
    void refusesAnEmptyWaitForChangeOrTimeoutAndAnswersAnEmptyLastEtagAtOnce() {
        for (String path : java.util.List.of("/claims", "/template-claims", "/claims/multi/gpu")) {
            for (String query : java.util.List.of("?waitForChange=", "?timeoutSeconds=", "?waitForChange=true&timeoutSeconds=")) {
                given().get(path + query).then().statusCode(400).contentType(PROBLEM)
                        .body("code", equalTo("invalid-parameter"));
            }
            given().get(path + "?waitForChange=true&timeoutSeconds=60&lastEtag=").then().time(lessThan(30_000L))
                    .statusCode(200);
        }
    }

    @Test
    void refusesALongPollParameterGivenTwice() {
        for (String name : java.util.List.of("waitForChange", "timeoutSeconds", "lastEtag")) {
            given().queryParam(name, "5", "x").get("/claims/multi/gpu").then().statusCode(400).contentType(PROBLEM)
                    .body("code", equalTo("invalid-parameter")).body("detail", equalTo(name + " is given 2 times; give it once"));
        }
    }
}
