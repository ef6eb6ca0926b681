package dev.dra.sidecar.kube;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;

/** Requests to the node-mode agent of an in-process {@code @QuarkusTest}, as a pod makes them, and its problems. */
final class AgentRequests {

    static final String PROBLEM = "application/problem+json";

    private AgentRequests() {}

    /** A request with {@code token} as its bearer token. */
    static RequestSpecification as(String token) {
        return given().header("Authorization", "Bearer " + token);
    }

    /** Asserts that {@code response} is the problem {@code code} with {@code status}, and lets the caller go on. */
    static ValidatableResponse problem(Response response, int status, String code) {
        return response.then().statusCode(status).contentType(PROBLEM).body("status", equalTo(status))
                .body("code", equalTo(code));
    }
}
