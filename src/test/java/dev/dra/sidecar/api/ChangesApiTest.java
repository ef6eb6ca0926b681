package dev.dra.sidecar.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.DeviceMetadataJson;
import dev.dra.sidecar.testsupport.Eventually;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What clients see when files change under the sidecar: long polls, new ETags, stale warnings. */
@QuarkusTest
@TestProfile(ApiTestTree.class)
class ChangesApiTest {

    private static final String CHANGING = "resourceclaims/changing/gpu/gpu.example.com-metadata.json";
    private static final String PATH = "/claims/changing/gpu";

    @TestHTTPResource("/")
    URI base;

    @jakarta.inject.Inject
    ApiConfig config;

    private static int generation = 1;

    private static synchronized int rewrite() {
        generation++;
        ApiTestTree.write(CHANGING, DeviceMetadataJson.forClaim("changing").generation(generation)
                .attributes("\"model\":{\"string\":\"X" + generation + "\"}").json());
        return generation;
    }

    @Test
    void longPollAnswersAtOnceWhenTheClientsETagIsOld() {
        long started = System.nanoTime();
        given().queryParam("waitForChange", "true").queryParam("lastEtag", "\"old\"").queryParam("timeoutSeconds", "30")
                .get(PATH).then().statusCode(200);
        given().queryParam("waitForChange", "true").queryParam("timeoutSeconds", "30").get(PATH).then().statusCode(200);
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toSeconds() < 10, "answered without waiting");
    }

    @Test
    void longPollAnswersOnChangeWithTheNewRepresentation() throws Exception {
        Response first = given().get(PATH);
        String etag = first.header("ETag");
        CompletableFuture<Response> poll = CompletableFuture.supplyAsync(() -> given()
                .queryParam("waitForChange", "true").queryParam("lastEtag", etag).queryParam("timeoutSeconds", "60")
                .get(PATH));
        Eventually.pause(Duration.ofMillis(300)); // let the poll arrive and wait; the assertion below does not depend on it
        int written = rewrite();
        Response answer = poll.get(30, TimeUnit.SECONDS);
        assertEquals(200, answer.statusCode());
        assertNotEquals(etag, answer.header("ETag"));
        assertEquals("X" + written, answer.jsonPath().getString("requests[0].devices[0].attributes.model.string"));
    }

    @Test
    void longPollAnswersAtTheTimeoutWithTheCurrentRepresentation() {
        String etag = given().get("/claims/lists/gpu").header("ETag");
        long started = System.nanoTime();
        given().queryParam("waitForChange", "true").queryParam("lastEtag", etag).queryParam("timeoutSeconds", "1")
                .get("/claims/lists/gpu").then().statusCode(200).header("ETag", etag);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertTrue(millis >= 950 && millis < 10_000, "waited about one second: " + millis + " ms");
    }

    @Test
    void servesTheLastGoodObjectWithAWarningWhenAFileBreaks() {
        String path = "/claims/breaking/gpu";
        String good = given().get(path).then().statusCode(200).extract().asString();
        ApiTestTree.write("resourceclaims/breaking/gpu/gpu.example.com-metadata.json", "{\"kind\":\"DeviceMeta");
        Eventually.await(Duration.ofSeconds(20), () -> given().get(path).header("Warning"), Objects::nonNull,
                "a stale Warning");
        given().get(path).then().statusCode(200)
                .header("Warning", containsString("110 - \"stale: "))
                .header("Warning", containsString("malformed"))
                .body(equalTo(good));
        given().get(path + "/drivers/gpu.example.com").then().statusCode(200)
                .header("Warning", containsString("stale"));
        ApiTestTree.write("resourceclaims/breaking/gpu/gpu.example.com-metadata.json",
                DeviceMetadataJson.forClaim("breaking").generation(2).attributes("\"model\":{\"string\":\"Y\"}").json());
        Eventually.await(Duration.ofSeconds(20), () -> given().get(path).header("Warning"), Objects::isNull,
                "no Warning once the file decodes again");
        given().get(path + "/drivers/gpu.example.com").then().statusCode(200).body("metadata.generation", equalTo(2));
    }

    @Test
    void asManyLongPollsAsAdmittedWaitWithoutThreadsAndAllReturnOnOneChange() throws Exception {
        int waiters = config.maxLongPolls();
        String etag = given().get(PATH).header("ETag");
        ExecutorService executor = Executors.newFixedThreadPool(4);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(executor).connectTimeout(Duration.ofSeconds(10)).build();
        try {
            int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
            URI uri = base.resolve(PATH + "?waitForChange=true&timeoutSeconds=120&lastEtag="
                    + java.net.URLEncoder.encode(etag, java.nio.charset.StandardCharsets.UTF_8));
            List<CompletableFuture<HttpResponse<String>>> polls = new ArrayList<>();
            for (int i = 0; i < waiters; i++) {
                polls.add(client.sendAsync(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(150)).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            Eventually.await(Duration.ofSeconds(20), this::waiting, n -> n >= waiters, "long polls waiting in the store");
            int threadsWhileWaiting = ManagementFactory.getThreadMXBean().getThreadCount();
            int written = rewrite();
            CompletableFuture.allOf(polls.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            for (CompletableFuture<HttpResponse<String>> poll : polls) {
                HttpResponse<String> response = poll.get();
                assertEquals(200, response.statusCode());
                assertTrue(response.body().contains("\"X" + written + "\""), response.body());
            }
            assertTrue(threadsWhileWaiting - threadsBefore < 30,
                    "threads: " + threadsBefore + " before, " + threadsWhileWaiting + " with " + waiters + " waiting");
        } finally {
            executor.shutdownNow();
        }
    }

    /** Long polls waiting in the store, from the metric the sidecar exposes. */
    private int waiting() {
        return io.quarkus.arc.Arc.container().instance(dev.dra.sidecar.store.MetadataStore.class).get().waiting();
    }
}
