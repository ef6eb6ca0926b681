package dev.dra.sidecar.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.FileTrees;
import dev.dra.sidecar.api.ApiConfig;
import io.smallrye.config.WithDefault;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The container image as users deploy it: built from src/main/docker/ with the README's command, run with podman
 * the way deploy/kubernetes/components/sidecar/sidecar.yaml runs it (src/test/image/run-like-pod.sh), on the
 * sample tree plus one single-file bind mount that the host rewrites in place. Skipped, saying why, where podman
 * cannot run containers.
 */
class SidecarImageIT {

    static final String IMAGE = "dra-metadata-sidecar:0.1.0";
    static final String ROOT_IN_CONTAINER = "/var/run/kubernetes.io/dra-device-attributes";
    static final String REWRITTEN = "resourceclaims/net-claim/nic/dranet.example.com-metadata.json";
    static final String API = "http://127.0.0.1:8089";
    /** The management interface on a free port (the pod's 9000 is often taken on a shared test machine). */
    static final int MANAGEMENT_PORT = dev.dra.sidecar.testsupport.LocalPorts.free();
    static final String MANAGEMENT = "http://127.0.0.1:" + MANAGEMENT_PORT;
    static final int FLOOD = 10_000;
    static final int SILENT = 3_000;
    static final int STALLED_BODIES = 590;

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final List<String> CONTAINERS = new ArrayList<>();
    private static Path tree;
    private static Path hostFile;

    @BeforeAll
    static void buildTheImage() throws Exception {
        String why = Podman.whyPodmanCannotRun();
        Assumptions.assumeTrue(why == null, () -> "image test skipped: " + why);
        Podman.Result base = Podman.script(600, "temurin-standin.sh", List.of());
        assertTrue(base.ok(), "no base image: " + base.output());
        System.out.println("[image] " + base.output().strip());

        List<String> build = readmeBuildCommand();
        long started = System.nanoTime();
        Podman.Result built = Podman.podman(900, build.subList(1, build.size()).toArray(String[]::new));
        assertTrue(built.ok(), "podman build failed:\n" + built.output());
        System.out.printf("[image] built %s in %d s: %s%n", IMAGE, seconds(started),
                built.output().lines().filter(l -> l.startsWith("aot-training:")).findFirst().orElse(""));

        tree = FileTrees.copyToTemporaryDirectory("deploy/sample/dra-device-attributes", "dra-image-tree");
        try (var paths = Files.walk(tree)) { // the image's user 1001 reads it, as the kubelet's files are readable
            for (Path path : (Iterable<Path>) paths::iterator) {
                Files.setPosixFilePermissions(path, java.nio.file.attribute.PosixFilePermissions.fromString(
                        Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        hostFile = Files.createTempFile("dra-image-file", ".json");
        Files.copy(tree.resolve(REWRITTEN), hostFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(hostFile, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    }

    @AfterAll
    static void removeContainers() {
        for (String name : CONTAINERS) {
            Podman.podman(60, "rm", "--force", "--time", "0", name);
        }
    }

    /** The build command of the README's image section: {@code podman build ...} (docker takes the same words). */
    static List<String> readmeBuildCommand() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        Matcher block = Pattern.compile("(?s)```shell\\n(\\./mvnw package[^\\n]*)\\n(podman build [^\\n]*)\\n```")
                .matcher(readme);
        assertTrue(block.find(), "README.md shows the image build as ./mvnw package ... then podman build ...");
        assertEquals("./mvnw package -DskipTests", block.group(1), "the jar this test runs is the one ./mvnw verify packaged");
        List<String> words = Arrays.asList(block.group(2).trim().split("\\s+"));
        assertTrue(words.contains(IMAGE), "the README's tag is the one this test runs: " + words);
        return words;
    }

    /** The memory limit of the sidecar container in the Kustomize component, in podman's spelling. */
    static String manifestMemoryLimit() throws IOException {
        JsonNode deployment = new YAMLMapper().readTree(Path.of("deploy/kubernetes/components/sidecar/sidecar.yaml").toFile());
        String limit = deployment.at("/spec/template/spec/initContainers/0/resources/limits/memory").asText();
        assertTrue(limit.matches("\\d+Mi"), "a limit in Mi: " + limit);
        return limit.replace("Mi", "m");
    }

    private static String startLikePod(String name, String... extraPodmanOptions) throws IOException {
        for (int port : new int[] {8089, MANAGEMENT_PORT}) {
            try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                probe.close();
            } catch (IOException e) {
                fail("port " + port + " is taken on this machine; the pod-like container needs it: " + e.getMessage());
            }
        }
        Podman.podman(60, "rm", "--force", "--time", "0", name);
        List<String> args = new ArrayList<>(List.of(IMAGE, name, manifestMemoryLimit(), tree.toString(),
                hostFile.toString(), REWRITTEN));
        args.addAll(List.of("--", "--env", "QUARKUS_MANAGEMENT_PORT=" + MANAGEMENT_PORT));
        args.addAll(List.of(extraPodmanOptions));
        Podman.Result run = Podman.script(120, "run-like-pod.sh", args);
        assertTrue(run.ok(), "podman run failed:\n" + run.output());
        CONTAINERS.add(name);
        return name;
    }

    /** Seconds from the container's process start to the first {@code started} UP seen (10 ms resolution). */
    private static double awaitStarted(String name) throws Exception {
        long pid = Long.parseLong(inspect(name, "{{.State.Pid}}"));
        double processStart = Long.parseLong(Files.readString(Path.of("/proc/" + pid + "/stat"))
                .replaceFirst("^.*\\) ", "").split(" ")[19]) / 100.0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (status(MANAGEMENT + "/q/health/started") == 200) {
                double now = Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]);
                return now - processStart;
            }
            if (!"running".equals(inspect(name, "{{.State.Status}}"))) {
                fail(name + " ended during start-up:\n" + logs(name));
            }
            Thread.sleep(10);
        }
        fail(name + " did not report started within 60 s:\n" + logs(name));
        return -1;
    }

    @Test
    void runsAsThePodRunsItServesRewritesSurvivesALongPollFloodAndStopsCleanly() throws Exception {
        String name = startLikePod("dra-image-it");
        System.out.printf("[image] started UP %.2f s after the container's process started%n", awaitStarted(name));
        assertEquals("1001:1001", Podman.podman(30, "exec", name, "sh", "-c", "echo $(id -u):$(id -g)").output().strip(),
                "the image's numeric non-root user");
        JsonNode config = new ObjectMapper().readTree(Podman.podman(30, "inspect", name).output()).get(0);
        assertTrue(config.at("/HostConfig/ReadonlyRootfs").asBoolean(), "read-only root");
        assertTrue(Podman.podman(30, "exec", name, "grep", "^CapEff:\t0000000000000000$", "/proc/1/status").ok(),
                "no capabilities");
        assertTrue(Podman.podman(30, "exec", name, "grep", "^NoNewPrivs:\t1$", "/proc/1/status").ok(),
                "no-new-privileges");

        HttpResponse<String> claims = get(API + "/claims");
        assertEquals(200, claims.statusCode(), claims.body());
        assertEquals("{\"claims\":[{\"name\":\"gpu-claim\",\"requests\":[\"gpu\"]},{\"name\":\"net-claim\",\"requests\":[\"nic\"]}]}\n",
                claims.body(), "the sample tree, on 127.0.0.1:8089");
        // JNA's native library loads under the read-only root with the 16Mi /tmp: the store watches each file.
        assertTrue(get(MANAGEMENT + "/q/metrics").body().contains("dra_watch_mode{mode=\"inotify\"} 1.0"),
                "inotify watch mode in the image:\n" + logs(name));

        // The host rewrites the bind-mounted file in place (same inode), as a driver does.
        String nicPath = API + "/claims/net-claim/nic";
        String before = get(nicPath).headers().firstValue("ETag").orElseThrow();
        rewriteInPlace("eth1", "eth9");
        HttpResponse<String> rewritten = Eventually.await(Duration.ofSeconds(10), () -> get(nicPath),
                r -> r.body().contains("\"interfaceName\":\"eth9\""), "the in-place rewrite is served");
        String etag = rewritten.headers().firstValue("ETag").orElseThrow();
        assertFalse(etag.equals(before));

        flood(name, nicPath, etag);
        silentConnections(name);
        requestBodies(name);
        pipelinedBurst(name);

        long stopping = System.nanoTime();
        int timeout = shutdownTimeoutSeconds();
        Podman.Result stop = Podman.podman(timeout + 30, "stop", "--time", String.valueOf(timeout), name);
        long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping);
        assertTrue(stop.ok(), stop.output());
        assertEquals("0", inspect(name, "{{.State.ExitCode}}"), "SIGTERM ends the sidecar with 0:\n" + logs(name));
        assertTrue(stopMillis < timeout * 1000L, "stopped within the " + timeout + " s shutdown timeout: " + stopMillis + " ms");
        System.out.printf("[image] podman stop: exit 0 after %d ms%n", stopMillis);
    }

    /**
     * 10,000 concurrent long polls from one NIO client: no OOM kill, every admitted waiter answered when the file
     * changes, every other one refused with 503 too-many-long-polls or a refused connection, plain reads answered
     * throughout.
     */
    private void flood(String name, String path, String etag) throws Exception {
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

            rewriteInPlace("eth9", "eth7");
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
                Long.parseLong(Files.readString(cgroup.resolve("memory.max_usage_in_bytes")).strip()) >> 20,
                manifestMemoryLimit());
    }

    /**
     * Connections that send nothing: on the API all but {@code quarkus.http.limits.max-connections} are closed at once
     * and counted; on the management port each is closed by the idle timeout while probes keep being answered.
     */
    private void silentConnections(String name) throws Exception {
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
    private void requestBodies(String name) throws Exception {
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
                statuses, Long.parseLong(Files.readString(memoryCgroup(name).resolve("memory.max_usage_in_bytes")).strip()) >> 20);
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
    private void pipelinedBurst(String name) throws Exception {
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
    private static long sendWithoutReading(byte[] burst, long total) {
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
    private static byte[] denseStream() {
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

    @Test
    void jsonLogSwitch() throws Exception {
        String name = startLikePod("dra-image-it-json", "--env", "QUARKUS_LOG_CONSOLE_JSON_ENABLED=true");
        awaitStarted(name);
        String log = logs(name);
        ObjectMapper json = new ObjectMapper();
        List<String> lines = log.lines().filter(l -> !l.isBlank()).toList();
        assertFalse(lines.isEmpty());
        for (String line : lines) {
            assertTrue(json.readTree(line).has("level"), "a JSON log line: " + line);
        }
        assertTrue(log.contains("Metadata root " + ROOT_IN_CONTAINER + " found"), log);
        Podman.podman(60, "stop", "--time", "10", name);
    }

    /**
     * The image runs with {@code -XX:AOTMode=on}: a cache that does not match the JVM (here: the object header
     * layout turned the other way) stops the start with the JVM's error instead of a silent slow start. That the
     * pod-like container starts at all therefore proves that its cache is used.
     */
    @Test
    void aMismatchedAotCacheFailsTheStart() throws Exception {
        List<String> options = Files.readAllLines(Path.of("src/main/docker/jvm-options")).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        assertTrue(options.contains("-XX:AOTMode=on"), "the image requires its AOT cache");
        String flip = options.contains("-XX:+UseCompactObjectHeaders") ? "-XX:-UseCompactObjectHeaders"
                : "-XX:+UseCompactObjectHeaders";
        String name = "dra-image-it-mismatch";
        Podman.podman(60, "rm", "--force", "--time", "0", name);
        CONTAINERS.add(name);
        Podman.Result run = Podman.podman(120, "run", "--name", name, "--network", "none", "--entrypoint", "java",
                IMAGE, "@/deployments/jvm-options", flip, "-jar", "/deployments/quarkus-run.jar");
        assertTrue(run.exit() != 0, "a mismatched cache must not start:\n" + run.output());
        assertTrue(run.output().contains("Unable to use AOT cache"), run.output());
    }

    private static void rewriteInPlace(String from, String to) throws IOException {
        String content = Files.readString(hostFile);
        assertTrue(content.contains("\"" + from + "\""), content);
        Files.writeString(hostFile, content.replace("\"" + from + "\"", "\"" + to + "\""), StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
    }

    private static int shutdownTimeoutSeconds() throws IOException {
        return Integer.parseInt(property("quarkus.shutdown.timeout").replace("s", ""));
    }

    private static int maxLongPolls() throws ReflectiveOperationException {
        return Integer.parseInt(ApiConfig.class.getMethod("maxLongPolls").getAnnotation(WithDefault.class).value());
    }

    private static int maxRequestBodies() throws ReflectiveOperationException {
        return Integer.parseInt(ApiConfig.class.getMethod("maxRequestBodies").getAnnotation(WithDefault.class).value());
    }

    private static String property(String key) throws IOException {
        for (String line : Files.readAllLines(Path.of("src/main/resources/application.properties"))) {
            if (line.startsWith(key + "=")) {
                return line.substring(key.length() + 1).strip();
            }
        }
        throw new IllegalStateException(key + " is not in application.properties");
    }

    private static int waiters() {
        return (int) sample(get(MANAGEMENT + "/q/metrics").body(), "dra_long_poll_waiters");
    }

    /** The value of an unlabelled metric in a Prometheus scrape; -1 if it is missing. */
    private static double sample(String metrics, String name) {
        Matcher sample = Pattern.compile("(?m)^" + Pattern.quote(name) + " (\\S+)$").matcher(metrics);
        return sample.find() ? Double.parseDouble(sample.group(1)) : -1;
    }

    /** The container's memory cgroup (v1) on the host. */
    private static Path memoryCgroup(String name) throws IOException {
        String pid = inspect(name, "{{.State.Pid}}");
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/cgroup"))) {
            String[] parts = line.split(":", 3);
            if (Arrays.asList(parts[1].split(",")).contains("memory")) {
                return Path.of("/sys/fs/cgroup/memory" + parts[2]);
            }
        }
        throw new IllegalStateException("no memory cgroup for " + name);
    }

    /** {@code rss} of the cgroup's memory.stat: anonymous memory charged to the container. */
    static long rss(Path cgroup) throws IOException {
        for (String line : Files.readAllLines(cgroup.resolve("memory.stat"))) {
            if (line.startsWith("rss ")) {
                return Long.parseLong(line.substring(4).strip());
            }
        }
        throw new IllegalStateException("no rss in " + cgroup);
    }

    private static String inspect(String name, String format) {
        return Podman.podman(30, "inspect", "--format", format, name).output().strip();
    }

    private static String logs(String name) {
        return Podman.podman(30, "logs", name).output();
    }

    private static HttpResponse<String> get(String url) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(url + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int status(String url) {
        try {
            return get(url).statusCode();
        } catch (IllegalStateException e) {
            return -1;
        }
    }

    private static long seconds(long startedNanos) {
        return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startedNanos);
    }
}
