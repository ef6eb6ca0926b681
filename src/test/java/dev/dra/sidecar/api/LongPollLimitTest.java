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
import org.junit.jupiter.api.Test;

/**
 * Past {@code dra.api.max-long-polls} waiting long polls, one more is refused at once with a problem of its own,
 * counted, while plain reads go on; a place that frees up admits the next long poll.
 */
@QuarkusTest
@TestProfile(LongPollLimitTest.TwoLongPolls.class)
class LongPollLimitTest {

    private static final String PATH = "/claims/lists/gpu";

    public static class TwoLongPolls extends ApiTestTree {
        public TwoLongPolls() {
            super(Map.of("dra.api.max-long-polls", "2"));
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
        double refusedBefore = refusals();
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
        assertEquals(refusedBefore + 1, refusals(), "the refusal is counted");

        given().get(PATH).then().statusCode(200).header("ETag", equalTo(etag)); // plain reads are not limited

        for (CompletableFuture<HttpResponse<String>> poll : waiting) {
            HttpResponse<String> answer = poll.get(20, TimeUnit.SECONDS);
            assertEquals(200, answer.statusCode(), "the admitted waiters are answered at their timeout");
        }
        Eventually.await(Duration.ofSeconds(20), () -> get(metrics), body -> body.contains("dra_long_poll_waiters 0.0"),
                "the waiters are gone");
        assertEquals(200, longPoll(etag, 1).get(20, TimeUnit.SECONDS).statusCode(), "freed places admit again");
    }

    private CompletableFuture<HttpResponse<String>> longPoll(String etag, int seconds) {
        URI uri = base.resolve(PATH + "?waitForChange=true&timeoutSeconds=" + seconds + "&lastEtag="
                + URLEncoder.encode(etag, StandardCharsets.UTF_8));
        return http.sendAsync(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    private double refusals() {
        return ApiMetrics.counter(get(metrics), "dra_long_poll_refusals_total");
    }

    private String get(URI uri) {
        try {
            return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
