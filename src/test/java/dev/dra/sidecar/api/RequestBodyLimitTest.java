package dev.dra.sidecar.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.api.problem.Problem;
import dev.dra.sidecar.api.problem.ProblemType;
import dev.dra.sidecar.testsupport.Eventually;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Past {@code dra.api.max-request-bodies} requests whose bodies are being read, one more is refused before its
 * body is read, with a problem of its own, counted, while requests without a body go on; a place is given back when
 * its exchange ends, also when the client goes away in the middle of its body.
 */
@QuarkusTest
@TestProfile(RequestBodyLimitTest.TwoBodies.class)
class RequestBodyLimitTest {

    private static final String STREAM = "{\"apiVersion\":\"metadata.resource.k8s.io/v1beta1\",\"kind\":\"DeviceMetadata\"}";

    public static class TwoBodies extends ApiTestTree {
        public TwoBodies() {
            super(Map.of("dra.api.max-request-bodies", "2"));
        }
    }

    @TestHTTPResource("/")
    URI base;

    @TestHTTPResource(value = "/metrics", management = true)
    URI metrics;

    @Test
    void theBodyPastTheLimitIsRefusedBeforeItIsReadAndCounted() throws Exception {
        double refusedBefore = refusals();
        try (Socket declared = slowBody("Content-Length: 1000\r\n");
                Socket chunked = slowBody("Transfer-Encoding: chunked\r\n")) {
            Response refused = Eventually.await(Duration.ofSeconds(10), this::validate, r -> r.statusCode() == 503,
                    "both slow bodies hold their places");
            assertEquals(Problem.MEDIA_TYPE, refused.contentType());
            assertEquals("too-many-request-bodies", refused.jsonPath().getString("code"));
            assertTrue(refused.jsonPath().getString("detail").contains("dra.api.max-request-bodies"), refused.asString());
            assertEquals(String.valueOf(ProblemType.TOO_MANY_REQUEST_BODIES.retryAfterSeconds()), refused.header("Retry-After"));
            assertEquals("close", refused.header("Connection"));
            assertEquals(refusedBefore + 1, refusals(), "the refusal is counted");

            given().get("/claims").then().statusCode(200); // a request without a body is not limited

            chunked.close(); // the client goes away in the middle of its body
            Eventually.await(Duration.ofSeconds(10), this::validate, r -> r.statusCode() == 200,
                    "the place of the body whose client went away admits the next one");
            OutputStream rest = declared.getOutputStream();
            rest.write(" ".repeat(1000 - STREAM.length()).getBytes(StandardCharsets.US_ASCII));
            rest.flush();
            String answer = new String(declared.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            assertEquals("HTTP/1.1 200", answer, "the slow body, once complete, is answered");
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(200, validate().statusCode(), "every place is back once the exchanges ended");
        }
    }

    /** A POST /validate whose head and first bytes are sent, and the rest of its body not (yet). */
    private Socket slowBody(String framing) throws IOException {
        Socket socket = new Socket(base.getHost(), base.getPort());
        String head = "POST /validate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" + framing
                + "\r\n";
        String start = framing.startsWith("Transfer-Encoding") ? Integer.toHexString(STREAM.length()) + "\r\n" + STREAM
                : STREAM;
        socket.getOutputStream().write((head + start).getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        return socket;
    }

    private Response validate() {
        return given().contentType("application/json").body(STREAM).post("/validate");
    }

    private double refusals() {
        return ApiMetrics.counter(given().baseUri(metrics.toString()).get().asString(), "dra_request_body_refusals_total");
    }
}
