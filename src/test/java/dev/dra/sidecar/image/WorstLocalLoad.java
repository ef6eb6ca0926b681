package dev.dra.sidecar.image;

import static dev.dra.sidecar.image.PodLikeContainer.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.Eventually;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What one local client can make the sidecar in the image hold, each phase run against a started pod-like container
 * and checked: no OOM kill, the API's bounds refuse what is past them, and plain reads are answered throughout.
 */
final class WorstLocalLoad {

    static final int FLOOD = 10_000;
    static final int SILENT = 3_000;
    static final int STALLED_BODIES = 590;

    /** A change of the file the long polls wait on, made while they wait. */
    interface Change {
        void make() throws IOException;
    }

    private WorstLocalLoad() {}

    /**
     * 10,000 concurrent long polls from one NIO client: no OOM kill, every admitted waiter answered when the file
     * changes, every other one refused with 503 too-many-long-polls or a refused connection, plain reads answered
     * throughout.
     */
    static void flood(String name, String path, String etag, Change change) throws Exception {
        Path cgroup = memoryCgroup(name);
        int connectionsRefused;
        try (LongPollFlood flood = new LongPollFlood(8089, "/claims/net-claim/nic", etag, 240, FLOOD)) {
            long started = System.nanoTime();
            int[] lastWaiting = {-1};
            flood.runUntil(60_000, () -> {
                int pending = flood.count(LongPollFlood.Outcome.PENDING);
                int waiting = waiters();
                boolean settled = waiting == pending && waiting == lastWaiting[0];
                lastWaiting[0] = waiting;
                return settled;
            });
            var counts = flood.counts();
            int admitted = counts.get(LongPollFlood.Outcome.PENDING);
            long rssUnderFlood = rss(cgroup);
            System.out.printf("[image] flood of %d long polls after %d s: %s; cgroup rss %d MiB%n", FLOOD,
                    seconds(started), counts, rssUnderFlood >> 20);
            assertEquals(admitted, waiters(), "every open long poll waits in the sidecar: " + counts);
            assertTrue(admitted > 0 && admitted <= maxLongPolls(), "admitted up to dra.api.max-long-polls: " + counts);
            assertTrue(counts.get(LongPollFlood.Outcome.REFUSED_503) > 0, "the excess gets the clear error: " + counts);
            assertEquals(0, counts.get(LongPollFlood.Outcome.OTHER_ANSWER), counts + "\n" + flood.otherAnswers());

            assertEquals(200, get(API + "/claims").statusCode(), "plain reads during the flood");
            assertEquals(200, status(MANAGEMENT + "/q/health/live"), "liveness during the flood");

            change.make();
            flood.runUntil(60_000, () -> flood.count(LongPollFlood.Outcome.PENDING) == 0);
            String changed = get(path).headers().firstValue("ETag").orElseThrow();
            assertEquals(admitted, flood.answeredWith(changed), "every admitted waiter got the change: " + flood.counts());
            assertEquals(FLOOD - admitted, flood.count(LongPollFlood.Outcome.REFUSED_503)
                    + flood.count(LongPollFlood.Outcome.CONNECTION_REFUSED), "the rest refused: " + flood.counts());
            connectionsRefused = flood.count(LongPollFlood.Outcome.CONNECTION_REFUSED);
        }
        assertEquals("running", inspect(name, "{{.State.Status}}"), logs(name));
        assertEquals("false", inspect(name, "{{.State.OOMKilled}}"));
        assertEquals(200, get(API + "/claims").statusCode(), "plain reads after the flood");
        String metrics = get(MANAGEMENT + "/q/metrics").body();
        assertTrue(metrics.matches("(?s).*\\ndra_long_poll_refusals_total [1-9].*"), "refusals are counted");
        // Connections past quarkus.http.limits.max-connections are closed unanswered, and counted by Quarkus; the
        // client also counts a connection the kernel refused before the server saw it.
        double rejected = sample(metrics, "vertx_http_connections_rejected_total");
        System.out.printf("[image] vertx_http_connections_rejected_total %.0f, connections refused %d%n", rejected,
                connectionsRefused);
        assertTrue(connectionsRefused == 0 || (rejected > 0 && rejected <= connectionsRefused),
                "rejected connections are counted: " + rejected + " of " + connectionsRefused);
        System.out.printf("[image] peak cgroup usage %d MiB of %s%n",
                memoryPeak(cgroup) >> 20,
                manifestMemoryLimit());
    }

    /**
     * Connections that send nothing: on the API all but {@code quarkus.http.limits.max-connections} are closed at once
     * and counted; on the management port each is closed by the idle timeout while probes keep being answered.
     */
    static void silentConnections(String name) throws Exception {
        String before = get(MANAGEMENT + "/q/metrics").body();
        double rejectedBefore = sample(before, "vertx_http_connections_rejected_total");
        int openBefore = (int) sample(before, "vertx_http_connections_current"); // this test's own HTTP client
        int maxConnections = Integer.parseInt(property("quarkus.http.limits.max-connections"));
        try (StalledConnections api = StalledConnections.silent(8089, SILENT)) {
            int refused = SILENT - (maxConnections - openBefore);
            int closed = api.awaitClosedByServer(refused, Duration.ofSeconds(20));
            String metrics = get(MANAGEMENT + "/q/metrics").body();
            System.out.printf("[image] %d silent connections to the API: %d closed by the sidecar; %s%n", SILENT, closed,
                    metrics.lines().filter(l -> l.startsWith("vertx_http_connections")).toList());
            assertEquals(refused, closed, "every connection past max-connections is closed at once");
            assertEquals(maxConnections, sample(metrics, "vertx_http_connections_current"), "the API's connections");
            assertEquals(rejectedBefore + refused, sample(metrics, "vertx_http_connections_rejected_total"),
                    "and counted");
            assertEquals(200, status(MANAGEMENT + "/q/health/live"), "liveness while the API is full");
        }
        Eventually.await(Duration.ofSeconds(10), () -> get(API + "/claims").statusCode(), s -> s == 200,
                "the API answers once the silent connections are gone");

        try (StalledConnections management = StalledConnections.silent(MANAGEMENT_PORT, SILENT)) {
            assertEquals(200, status(MANAGEMENT + "/q/health/live"), "probes are answered beside silent connections");
            long started = System.nanoTime();
            int closed = management.awaitClosedByServer(SILENT, Duration.ofSeconds(30));
            System.out.printf("[image] %d silent connections to the management port: %d closed by the sidecar within %d s%n",
                    SILENT, closed, seconds(started));
            assertEquals(SILENT, closed, "quarkus.management.idle-timeout closes silent connections");
        }
        assertEquals("running", inspect(name, "{{.State.Status}}"), logs(name));
    }

    /**
     * Request bodies past {@code dra.api.max-request-bodies}: of 590 {@code POST /validate} that send 60 KB of a
     * 1.9 MB body and stall, all but the places are refused before their bodies are read; then 30 dense 1 MB streams
     * at once are validated up to the places at a time and the rest refused. The sidecar serves throughout.
     */
    static void requestBodies(String name) throws Exception {
        int places = maxRequestBodies();
        byte[] stalledHead = ("POST /validate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: 1900000\r\n\r\n" + " ".repeat(60_000)).getBytes(StandardCharsets.US_ASCII);
        try (StalledConnections stalled = StalledConnections.open(8089, STALLED_BODIES, stalledHead)) {
            int closed = stalled.awaitClosedByServer(STALLED_BODIES - places, Duration.ofSeconds(30));
            System.out.printf("[image] %d stalled request bodies: closed after %s%n", STALLED_BODIES, stalled.closedAfter());
            assertEquals(STALLED_BODIES - places, closed, "all but " + places + " refused: " + stalled.closedAfter());
            assertEquals(Map.of("HTTP/1.1 503 Service Unavailable", closed), stalled.closedAfter());
            assertEquals(200, get(API + "/claims").statusCode(), "reads beside the stalled bodies");
        }
        byte[] dense = denseStream();
        List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> posts = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            posts.add(HTTP.sendAsync(HttpRequest.newBuilder(URI.create(API + "/validate"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(dense))
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString()));
        }
        Map<Integer, Integer> statuses = new java.util.TreeMap<>();
        for (var post : posts) {
            int status;
            try {
                HttpResponse<String> answer = post.get(90, TimeUnit.SECONDS);
                status = answer.statusCode();
                if (status == 200) {
                    assertTrue(answer.body().startsWith("{\"decoded\":true"), answer.body().substring(0, 100));
                }
            } catch (java.util.concurrent.ExecutionException refusedBeforeTheBodyWasSent) {
                status = -1; // the 503 and the close came while the client was still sending
            }
            statuses.merge(status, 1, Integer::sum);
        }
        System.out.printf("[image] 30 dense 1 MB streams at once: answers by status %s; peak cgroup usage %d MiB%n",
                statuses, memoryPeak(memoryCgroup(name)) >> 20);
        assertTrue(statuses.getOrDefault(200, 0) >= 1, "validated, " + places + " at a time: " + statuses);
        assertEquals(30, statuses.getOrDefault(200, 0) + statuses.getOrDefault(503, 0) + statuses.getOrDefault(-1, 0),
                "every other one refused: " + statuses);
        assertEquals("running", inspect(name, "{{.State.Status}}"), logs(name));
        assertEquals(200, get(API + "/claims").statusCode(), "reads after the bodies");
    }

    /**
     * 20 clients each send 2 MB of pipelined GETs without reading an answer, and go away: the API answers other
     * clients again within seconds, not once every request read has been handled.
     */
    static void pipelinedBurst(String name) throws Exception {
        byte[] burst = "GET /claims/gpu-claim/gpu HTTP/1.1\r\nHost: localhost\r\n\r\n".repeat(1000)
                .getBytes(StandardCharsets.US_ASCII);
        List<Thread> senders = new ArrayList<>();
        long[] sent = new long[20];
        for (int i = 0; i < sent.length; i++) {
            int sender = i;
            Thread thread = new Thread(() -> sent[sender] = sendWithoutReading(burst, 2 << 20));
            thread.start();
            senders.add(thread);
        }
        for (Thread sender : senders) {
            sender.join();
        }
        long started = System.nanoTime();
        Eventually.await(Duration.ofSeconds(20), () -> status(API + "/claims"), s -> s == 200,
                "the API answers again after the burst");
        System.out.printf("[image] %d MB of pipelined requests whose answers were never read: the API answered "
                + "again %d ms after the clients went away%n", Arrays.stream(sent).sum() >> 20,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        assertEquals(200, status(MANAGEMENT + "/q/health/live"));
        assertEquals("running", inspect(name, "{{.State.Status}}"), logs(name));
    }

    /** Sends {@code total} bytes of {@code burst} repeated, reading nothing, until done or the server stops reading. */
    static long sendWithoutReading(byte[] burst, long total) {
        long sent = 0;
        try (java.nio.channels.SocketChannel channel = java.nio.channels.SocketChannel.open(
                new java.net.InetSocketAddress("127.0.0.1", 8089))) {
            channel.configureBlocking(false);
            java.nio.ByteBuffer out = java.nio.ByteBuffer.wrap(burst);
            long stalledSince = System.nanoTime();
            while (sent < total && System.nanoTime() - stalledSince < TimeUnit.SECONDS.toNanos(2)) {
                int written = channel.write(out);
                if (written > 0) {
                    sent += written;
                    stalledSince = System.nanoTime();
                }
                if (!out.hasRemaining()) {
                    out.rewind();
                }
                if (written == 0) {
                    Thread.sleep(5);
                }
            }
        } catch (IOException | InterruptedException e) {
            // the server closed it, or the test ends: what was sent stands
        }
        return sent;
    }

    /** A valid stream of about 1 MB (under dra.metadata.max-file-size): one request with many devices. */
    static byte[] denseStream() {
        StringBuilder devices = new StringBuilder();
        for (int i = 0; devices.length() < 990_000; i++) {
            devices.append(i == 0 ? "" : ",").append("{\"driver\":\"gpu.example.com\",\"pool\":\"p\",\"name\":\"gpu-")
                    .append(i).append("\",\"attributes\":{");
            for (int a = 0; a < 8; a++) {
                devices.append(a == 0 ? "" : ",").append("\"a").append(a).append("\":{\"string\":\"xxxxxxxx\"}");
            }
            devices.append("}}");
        }
        return ("{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"metadata.resource.k8s.io/v1beta1\",\"metadata\":"
                + "{\"name\":\"c\",\"namespace\":\"n\",\"uid\":\"u\",\"generation\":1},\"requests\":[{\"name\":\"r\","
                + "\"devices\":[" + devices + "]}]}").getBytes(StandardCharsets.UTF_8);
    }
}
