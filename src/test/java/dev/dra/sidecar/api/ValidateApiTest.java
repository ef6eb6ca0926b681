package dev.dra.sidecar.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** POST /validate, as a driver author uses it. */
@QuarkusTest
@TestProfile(ApiTestTree.class)
class ValidateApiTest {

    @TestHTTPResource("/validate")
    URI validate;

    @Test
    void reportsAValidStreamWithTheVersionAConsumerWouldUse() throws Exception {
        byte[] stream = Files.readAllBytes(Path.of("src/test/resources/fixtures/upstream/"
                + "devicemetadata-example_test_compact-stream_unknown-v1000-then-v1alpha1.json"));
        given().contentType("application/json").body(stream).post("/validate").then().statusCode(200)
                .body("decoded", equalTo(true))
                .body("valid", equalTo(true))
                .body("apiVersion", equalTo("metadata.resource.k8s.io/v1alpha1"))
                .body("skippedVersions", contains("metadata.resource.k8s.io/v1000"))
                .body("violations", empty())
                .body("object.apiVersion", equalTo("metadata.resource.k8s.io/v1beta1"));
    }

    @Test
    void listsEveryViolationWithItsFieldPath() {
        String stream = """
                {"kind":"DeviceMetadata","apiVersion":"metadata.resource.k8s.io/v1beta1","podClaimName":"INVALID",
                 "requests":[{"name":"gpu","devices":[{"driver":"gpu.example.com","pool":"worker-0/","name":"GPU-0",
                 "attributes":{"model":{"string":"x","int":1}}}]}]}
                """;
        given().contentType("application/json").body(stream).post("/validate").then().statusCode(200)
                .body("decoded", equalTo(true))
                .body("valid", equalTo(false))
                .body("violations.field", contains("podClaimName", "requests[0].devices[0].pool",
                        "requests[0].devices[0].name", "requests[0].devices[0].attributes[model]"));
    }

    @Test
    void reportsAStreamThatDoesNotDecodeWithItsCode() {
        given().contentType("application/json").body("{\"apiVersion\":\"metadata.resource.k8s.io/v1beta1\",")
                .post("/validate").then().statusCode(200)
                .body("decoded", equalTo(false))
                .body("error.code", equalTo("malformed-stream"));
        given().contentType("application/json").body("").post("/validate").then().statusCode(200)
                .body("error.code", equalTo("no-metadata-objects"));
        given().contentType("application/json").body("{\"apiVersion\":\"x.k8s.io/v9\",\"kind\":\"DeviceMetadata\"}")
                .post("/validate").then().statusCode(200)
                .body("error.code", equalTo("no-compatible-version"));
    }

    @Test
    void refusesAStreamLargerThanAFileMayBe() {
        byte[] big = new byte[1024 * 1024 + 1];
        java.util.Arrays.fill(big, (byte) ' ');
        given().contentType("application/json").body(big).post("/validate").then().statusCode(413)
                .body("code", equalTo("payload-too-large"));
    }

    /** Over quarkus.http.limits.max-body-size (2M): refused from the headers alone, with the problem. */
    @Test
    void refusesABodyDeclaredLargerThanTheServerTakesBeforeReadingIt() throws IOException {
        String answer = exchange("localhost", 2 * 1024 * 1024 + 1);
        assertTrue(answer.startsWith("HTTP/1.1 413 "), answer);
        assertTrue(answer.toLowerCase(Locale.ROOT).contains("\r\nconnection: close\r\n"), "the unread body: " + answer);
        assertTrue(answer.contains("\"code\":\"payload-too-large\""), answer);
        assertTrue(answer.contains("quarkus.http.limits.max-body-size"), answer);

        String foreign = exchange("evil.example", 2 * 1024 * 1024 + 1);
        assertTrue(foreign.startsWith("HTTP/1.1 400 ") && foreign.contains("\"code\":\"invalid-host\""), foreign);
    }

    /** Sends only the head of a POST /validate that declares {@code length} body bytes; the whole answer. */
    private String exchange(String host, long length) throws IOException {
        try (Socket socket = new Socket(validate.getHost(), validate.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("POST /validate HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json"
                    + "\r\nContent-Length: " + length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void acceptsPlainTextAndOctetStreamBodies() {
        given().contentType("text/plain").body("").post("/validate").then().statusCode(200)
                .body("error.code", equalTo("no-metadata-objects"));
        given().contentType("application/octet-stream").body(new byte[0]).post("/validate").then().statusCode(200);
    }

    /** What curl --data-binary sends without -H: the problem lists the types the resource takes. */
    @Test
    void refusesAFormBodyNamingTheTypesItTakes() {
        given().contentType("application/x-www-form-urlencoded").body("{}").post("/validate").then().statusCode(415)
                .contentType("application/problem+json")
                .body("code", equalTo("unsupported-media-type"))
                .body("detail", containsString("application/json, application/octet-stream, text/plain"))
                .body("detail", containsString("\"application/x-www-form-urlencoded"))
                .body("detail", not(containsString("@Consumes")));
    }
}
