package dev.dra.sidecar.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.PackagedSidecar;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The packaged application as kubelet runs it: one setting switches the console to JSON lines, SIGTERM answers a
 * waiting long poll with a normal 200 and ends the process well within the shutdown timeout, and the OpenAPI
 * document is served as checked in.
 */
class PackagedJarIT {

    @Test
    void jsonLogsAndSigtermAnswersLongPolls() throws Exception {
        Path root = OpsTestTree.copyOfSample();
        // The one documented setting, as an operator sets it in the pod spec.
        try (PackagedSidecar sidecar = PackagedSidecar.start("packaged-jar-json-logs", root, List.of(), List.of(),
                Map.of("dra.metadata.expected-claims", "claims/gpu-claim/gpu"),
                Map.of("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "true"))) {
            Eventually.await(Duration.ofSeconds(120), () -> management(sidecar, "/q/health/started").statusCode(),
                    s -> s == 200, "started probe UP");

            HttpResponse<String> first = sidecar.get("/claims/gpu-claim/gpu");
            assertEquals(200, first.statusCode(), first.body());
            String etag = first.headers().firstValue("ETag").orElseThrow();
            CompletableFuture<HttpResponse<String>> poll = sidecar.http.sendAsync(
                    HttpRequest.newBuilder(sidecar.uri("/claims/gpu-claim/gpu?waitForChange=true&timeoutSeconds=120"
                            + "&lastEtag=" + java.net.URLEncoder.encode(etag, StandardCharsets.UTF_8))).build(),
                    HttpResponse.BodyHandlers.ofString());
            Eventually.await(Duration.ofSeconds(30), () -> management(sidecar, "/q/metrics").body(),
                    body -> body.contains("dra_long_poll_waiters 1.0"), "the long poll is waiting");

            long stopping = System.nanoTime();
            boolean ended = sidecar.terminate(Duration.ofSeconds(15)); // SIGTERM, as kubelet sends it
            HttpResponse<String> answer = poll.get(15, TimeUnit.SECONDS);
            assertEquals(200, answer.statusCode(), answer.body());
            assertEquals(etag, answer.headers().firstValue("ETag").orElse(null), "the current representation");
            assertTrue(ended, "the process ended");
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping);
            assertTrue(millis < 8_000, "the open long poll did not hold the 10 s shutdown timeout: " + millis + " ms");

            ObjectMapper json = new ObjectMapper();
            List<String> lines = sidecar.log().lines().toList();
            boolean rootFound = false;
            for (String line : lines) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode entry = json.readTree(line); // every line is a JSON object
                assertTrue(entry.isObject(), line);
                assertNotNull(entry.get("level"), line);
                String message = entry.path("message").asText();
                rootFound |= message.startsWith("Metadata root " + root) && message.endsWith(" found");
                assertFalse(message.contains("/claims/gpu-claim/gpu"), "nothing logged per request: " + line);
            }
            assertTrue(rootFound, "the store's log line, as JSON: " + lines);
        }
    }

    /**
     * The packaged sidecar serves the checked-in OpenAPI document, and never loads SmallRye OpenAPI's model, readers
     * or writers: nothing of the document is parsed or written at run time (api.openapi.PublishedOpenApiDocument).
     */
    @Test
    void servesTheCheckedInOpenApiDocumentWithoutParsingIt() throws Exception {
        Path classes = Path.of("target/reliability/packaged-jar-openapi-classes.log").toAbsolutePath();
        try (PackagedSidecar sidecar = PackagedSidecar.start("packaged-jar-openapi", OpsTestTree.copyOfSample(),
                List.of(), List.of(), Map.of(), Map.of("JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + classes))) {
            HttpResponse<String> yaml = sidecar.management("/q/openapi");
            assertEquals(200, yaml.statusCode());
            assertEquals(Files.readString(Path.of("src/main/openapi/openapi.yaml")), yaml.body());
            HttpResponse<String> json = sidecar.management("/q/openapi.json");
            assertEquals(200, json.statusCode());
            assertEquals(Files.readString(Path.of("src/main/openapi/openapi.json")), json.body());

            List<String> openApiClasses = Files.readAllLines(classes).stream()
                    .filter(line -> line.contains(" io.smallrye.openapi.")).toList();
            assertTrue(Files.readString(classes).contains(" dev.dra.sidecar.api.openapi.PublishedOpenApiDocument "),
                    "the class-load log covers the application");
            assertEquals(List.of(), openApiClasses, "SmallRye OpenAPI classes loaded at run time");
        }
    }

    private static HttpResponse<String> management(PackagedSidecar sidecar, String path) {
        try {
            return sidecar.management(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
