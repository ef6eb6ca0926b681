package dev.dra.sidecar.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
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
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The bounds on what clients can make the API hold, each set to two places. Past {@code dra.api.max-long-polls}
 * waiting long polls, one more is refused at once with a problem of its own, counted, while plain reads go on; a place
 * that frees up admits the next long poll. Past {@code dra.api.max-request-bodies} requests whose bodies are being
 * read, one more is refused before its body is read, with a problem of its own, counted, while requests without a
 * body go on; a place is given back when its exchange ends, also when the client goes away in the middle of its body.
 */
@QuarkusTest
@TestProfile(AdmissionLimitsTest.TwoOfEach.class)
class AdmissionLimitsTest {

    private static final String PATH = "/claims/lists/gpu";
    private static final String STREAM = "{\"apiVersion\":\"metadata.resource.k8s.io/v1beta1\",\"kind\":\"DeviceMetadata\"}";
    private static final String LONG_POLL_REFUSALS = "dra_long_poll_refusals_total";
    private static final String REQUEST_BODY_REFUSALS = "dra_request_body_refusals_total";

    public static class TwoOfEach extends ApiTestTree {
        public TwoOfEach() {
            super(Map.of("dra.api.max-long-polls", "2", "dra.api.max-request-bodies", "2"));
        }
    }

    @TestHTTPResource("/")
    URI base;

    @TestHTTPResource(value = "/metrics", management = true)
    URI metrics;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void theLongPollPastTheLimitIsRefusedAtOnceAndCounted() throws Exception {
        String etag = given().get(PATH).then().statusCode(200).extract().header("ETag");
        double refusedBefore = refusals(LONG_POLL_REFUSALS);
        List<CompletableFuture<HttpResponse<String>>> waiting = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            waiting.add(longPoll(etag, 3));
        }
        Eventually.await(Duration.ofSeconds(20), () -> get(metrics), body -> body.contains("dra_long_poll_waiters 2.0"),
                "both long polls wait");

        long started = System.nanoTime();
        HttpResponse<String> refused = longPoll(etag, 3).get(10, TimeUnit.SECONDS);
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) < 2_000, "refused at once");
        assertEquals(503, refused.statusCode(), refused.body());
        assertEquals(Problem.MEDIA_TYPE, refused.headers().firstValue("Content-Type").orElse(null));
        assertEquals(String.valueOf(ProblemType.TOO_MANY_LONG_POLLS.retryAfterSeconds()),
                refused.headers().firstValue("Retry-After").orElse(null));
        assertTrue(refused.body().contains("\"code\":\"too-many-long-polls\""), refused.body());
        assertTrue(refused.body().contains("dra.api.max-long-polls"), refused.body());
        assertEquals(refusedBefore + 1, refusals(LONG_POLL_REFUSALS), "the refusal is counted");

        given().get(PATH).then().statusCode(200).header("ETag", equalTo(etag)); // plain reads are not limited

        for (CompletableFuture<HttpResponse<String>> poll : waiting) {
            HttpResponse<String> answer = poll.get(20, TimeUnit.SECONDS);
            assertEquals(200, answer.statusCode(), "the admitted waiters are answered at their timeout");
        }
        Eventually.await(Duration.ofSeconds(20), () -> get(metrics), body -> body.contains("dra_long_poll_waiters 0.0"),
                "the waiters are gone");
        assertEquals(200, longPoll(etag, 1).get(20, TimeUnit.SECONDS).statusCode(), "freed places admit again");
    }

    @Test
    void theBodyPastTheLimitIsRefusedBeforeItIsReadAndCounted() throws Exception {
        double refusedBefore = refusals(REQUEST_BODY_REFUSALS);
        try (Socket declared = slowBody("Content-Length: 1000\r\n");
                Socket chunked = slowBody("Transfer-Encoding: chunked\r\n")) {
            Response refused = Eventually.await(Duration.ofSeconds(10), this::validate, r -> r.statusCode() == 503,
                    "both slow bodies hold their places");
            assertEquals(Problem.MEDIA_TYPE, refused.contentType());
            assertEquals("too-many-request-bodies", refused.jsonPath().getString("code"));
            assertTrue(refused.jsonPath().getString("detail").contains("dra.api.max-request-bodies"), refused.asString());
            assertEquals(String.valueOf(ProblemType.TOO_MANY_REQUEST_BODIES.retryAfterSeconds()), refused.header("Retry-After"));
            assertEquals("close", refused.header("Connection"));
            assertEquals(refusedBefore + 1, refusals(REQUEST_BODY_REFUSALS), "the refusal is counted");

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

    private CompletableFuture<HttpResponse<String>> longPoll(String etag, int seconds) {
        URI uri = base.resolve(PATH + "?waitForChange=true&timeoutSeconds=" + seconds + "&lastEtag="
                + URLEncoder.encode(etag, StandardCharsets.UTF_8));
        return http.sendAsync(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
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

    /** The value of the counter {@code name}, which must be exposed. */
    private double refusals(String name) {
        Matcher sample = Pattern.compile("(?m)^" + Pattern.quote(name) + " (\\S+)$").matcher(get(metrics));
        assertTrue(sample.find(), name + " is exposed");
        return Double.parseDouble(sample.group(1));
    }

    private String get(URI uri) {
        try {
            return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
