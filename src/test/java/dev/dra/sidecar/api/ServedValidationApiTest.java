package dev.dra.sidecar.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/** {@code GET .../{claim}/{request}/validation}: the upstream validation of what each driver file serves. */
@QuarkusTest
@TestProfile(ApiTestTree.class)
class ServedValidationApiTest {

    @Test
    void aValidRequestReportsEachDriverFileValid() {
        given().get("/claims/multi/gpu/validation").then().statusCode(200)
                .contentType("application/json")
                .header("ETag", startsWith("\""))
                .body("request", equalTo("gpu"))
                .body("valid", equalTo(true))
                .body("drivers.driver", contains("a.example.com", "b.example.com"))
                .body("drivers[0].file", endsWith("resourceclaims/multi/gpu/a.example.com-metadata.json"))
                .body("drivers[0].apiVersion", equalTo("metadata.resource.k8s.io/v1beta1"))
                .body("drivers[0].valid", equalTo(true))
                .body("drivers[0].violations", empty());
    }

    @Test
    void violationsOfTheServedObjectCarryTheFieldPathsOfPostValidate() {
        // the upstream HEAD fixture fills every field with placeholder values, several of them invalid
        String stream = given().get("/claims/upstream-head/request/drivers/gpu.example.com").then().statusCode(200)
                .extract().asString();
        var fromPost = given().contentType("application/json").body(stream).post("/validate").then().statusCode(200)
                .extract().jsonPath().getList("violations.field");
        given().get("/claims/upstream-head/request/validation").then().statusCode(200)
                .body("valid", equalTo(false))
                .body("drivers[0].valid", equalTo(false))
                .body("drivers[0].violations.field", equalTo(fromPost))
                .body("drivers[0].violations.field", contains("metadata.managedFields[0].operation", "podClaimName",
                        "requests[0].devices[0].attributes[model]"));
    }

    @Test
    void aFileThatDoesNotDecodeIsListedWithItsFailureAndTheOthersAreStillValidated() {
        given().get("/claims/multibad/gpu/validation").then().statusCode(200)
                .body("valid", equalTo(false))
                .body("drivers.driver", contains("a.example.com", "b.example.com"))
                .body("drivers[0].valid", equalTo(true))
                .body("drivers[1].valid", nullValue())
                .body("drivers[1].violations", nullValue())
                .body("drivers[1].error.code", equalTo("malformed-stream"))
                .body("drivers[1].error.detail", startsWith(ApiTestTree.file("resourceclaims/multibad/gpu/b.example.com-metadata.json").toString()));
    }

    @Test
    void templateClaimsHaveTheSameResource() {
        given().get("/template-claims/gpu/gpu/validation").then().statusCode(200)
                .body("valid", equalTo(true))
                .body("drivers[0].driver", equalTo("gpu.example.com"));
    }

    @Test
    void aMissingRequestOrABadNameIsAProblem() {
        given().get("/claims/multi/nope/validation").then().statusCode(404).body("code", equalTo("not-found"));
        given().get("/claims/Multi/gpu/validation").then().statusCode(400).body("code", equalTo("invalid-name"));
    }

    @Test
    void answersConditionalRequests() {
        String etag = given().get("/claims/multi/gpu/validation").then().statusCode(200).extract().header("ETag");
        given().header("If-None-Match", etag).get("/claims/multi/gpu/validation").then().statusCode(304);
    }
}
