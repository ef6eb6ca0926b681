package dev.dra.sidecar.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.LocalPorts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The packaged application as kubelet runs it: one setting switches the console to JSON lines, and SIGTERM
 * answers a waiting long poll with a normal 200 and ends the process well within the shutdown timeout.
 */
class PackagedJarIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void jsonLogsAndSigtermAnswersLongPolls() throws Exception {
        Path jar = Path.of("target/quarkus-app/quarkus-run.jar");
        assertTrue(Files.isRegularFile(jar), "package the application first: " + jar.toAbsolutePath());
        int apiPort = LocalPorts.free();
        int managementPort = LocalPorts.free();
        Path root = OpsTestTree.copyOfSample();
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dquarkus.http.port=" + apiPort, "-Dquarkus.management.port=" + managementPort,
                "-Ddra.metadata.root=" + root, "-Ddra.metadata.expected-claims=claims/gpu-claim/gpu",
                "-jar", jar.toString())
                .redirectErrorStream(true);
        // The one documented setting, as an operator sets it in the pod spec.
        builder.environment().put("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "true");
        Process process = builder.start();
        List<String> lines = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // process ended
            }
        });
        reader.start();
        try {
            String management = "http://127.0.0.1:" + managementPort;
            String api = "http://127.0.0.1:" + apiPort;
            Eventually.await(Duration.ofSeconds(120), () -> status(management + "/q/health/started"), s -> s == 200,
                    "started probe UP");

            HttpResponse<String> first = get(api + "/claims/gpu-claim/gpu");
            assertEquals(200, first.statusCode(), first.body());
            String etag = first.headers().firstValue("ETag").orElseThrow();
            CompletableFuture<HttpResponse<String>> poll = HTTP.sendAsync(
                    HttpRequest.newBuilder(URI.create(api + "/claims/gpu-claim/gpu?waitForChange=true&timeoutSeconds=120"
                            + "&lastEtag=" + java.net.URLEncoder.encode(etag, StandardCharsets.UTF_8))).build(),
                    HttpResponse.BodyHandlers.ofString());
            Eventually.await(Duration.ofSeconds(30), () -> get(management + "/q/metrics").body(),
                    body -> body.contains("dra_long_poll_waiters 1.0"), "the long poll is waiting");

            long stopping = System.nanoTime();
            process.destroy(); // SIGTERM, as kubelet sends it
            HttpResponse<String> answer = poll.get(15, TimeUnit.SECONDS);
            assertEquals(200, answer.statusCode(), answer.body());
            assertEquals(etag, answer.headers().firstValue("ETag").orElse(null), "the current representation");
            assertTrue(process.waitFor(15, TimeUnit.SECONDS), "the process ended");
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping);
            assertTrue(millis < 8_000, "the open long poll did not hold the 10 s shutdown timeout: " + millis + " ms");
            reader.join(5_000);

            ObjectMapper json = new ObjectMapper();
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
        } finally {
            process.destroyForcibly();
        }
    }

    private static int status(String url) {
        try {
            return get(url).statusCode();
        } catch (RuntimeException e) {
            return -1; // not listening yet
        }
    }

    private static HttpResponse<String> get(String url) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
