package dev.dra.sidecar.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.testsupport.DeviceMetadataJson;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.FileTrees;
import dev.dra.sidecar.testsupport.MetadataFiles;
import dev.dra.sidecar.testsupport.PackagedSidecar;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Faults under the packaged sidecar, each ending in the documented state of docs/reliability.md: the root deleted
 * and recreated, a claim unprepared while clients long-poll on it, a file that turns unreadable, and polling alone
 * (inotify off). The sidecar runs as an unprivileged user (nobody, via setpriv) when the tests run as root, as it
 * does in a pod: root reads through any permission bits, so only then does chmod make a file really unreadable.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DRIVER = "gpu.example.com";
    /** Poll interval 50 ms; on a busy 2-core machine allow for scheduling. */
    private static final Duration POLL_BOUND = Duration.ofSeconds(1);

    static Path work;
    static Path root;
    static PackagedSidecar sidecar;
    static boolean unprivileged;

    @BeforeAll
    static void start() throws IOException {
        work = Files.createTempDirectory("dra-faults");
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
        root = work.resolve("root");
        Path tmp = Files.createDirectories(work.resolve("tmp"));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
        write("keep", 1);
        write("gone", 1);
        write("locked", 1);
        List<String> prefix = List.of();
        unprivileged = !"root".equals(System.getProperty("user.name"));
        if (!unprivileged && Files.isExecutable(Path.of("/usr/bin/setpriv"))) {
            prefix = List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups");
            unprivileged = true;
        }
        if (!unprivileged) {
            System.out.println("[faults] NOTE: running as root without setpriv: the unreadable-file case is skipped");
        }
        sidecar = PackagedSidecar.start("faults", root, prefix, List.of(),
                Map.of("java.io.tmpdir", tmp.toString()));
    }

    @AfterAll
    static void stop() {
        if (sidecar != null) {
            sidecar.close();
        }
    }

    static Path file(String claim) {
        return MetadataFiles.file(root, ClaimKind.CLAIM, claim, "gpu", DRIVER);
    }

    /** Writes the claim's file in place, as the driver does, with the generation also as attribute {@code gen}. */
    static void write(String claim, long generation) {
        MetadataFiles.create(file(claim), DeviceMetadataJson.forClaim(claim).generation(generation).driver(DRIVER)
                .attributes("\"gen\":{\"int\":" + generation + "}").json());
    }

    static HttpResponse<String> get(String path) {
        try {
            return sidecar.get(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static long generation(String claim) {
        HttpResponse<String> r = get("/claims/" + claim + "/gpu/drivers/" + DRIVER);
        if (r.statusCode() != 200) {
            return -r.statusCode();
        }
        try {
            return JSON.readTree(r.body()).at("/metadata/generation").asLong(-1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void assertProblem(HttpResponse<String> r, int status, String code) throws IOException {
        assertEquals(status, r.statusCode(), r.body());
        assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElse("").split(";")[0]);
        JsonNode problem = JSON.readTree(r.body());
        assertEquals(code, problem.path("code").asText(), r.body());
        assertEquals(status, problem.path("status").asInt());
    }

    static void assertLive() {
        try {
            assertEquals(200, sidecar.management("/q/health/live").statusCode(), "liveness stays up");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    @Order(1)
    void claimRemovedWhileClientsLongPollOnItAnswersEveryWaiterWith404() throws Exception {
        String[] paths = {"/claims/gone", "/claims/gone/gpu", "/claims/gone/gpu/drivers/" + DRIVER,
            "/claims/gone/gpu/devices/gpu-0/attributes/gen"};
        List<CompletableFuture<HttpResponse<String>>> polls = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String path = paths[i % paths.length];
            HttpResponse<String> first = get(path);
            assertEquals(200, first.statusCode(), path);
            String etag = first.headers().firstValue("ETag").orElseThrow();
            polls.add(sidecar.http.sendAsync(HttpRequest.newBuilder(sidecar.uri(path + "?waitForChange=true&timeoutSeconds=60&lastEtag="
                    + java.net.URLEncoder.encode(etag, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(90)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        // Give the polls time to reach the server; the assertions below hold whether or not they all did.
        Eventually.pause(Duration.ofMillis(500));
        assertTrue(polls.stream().noneMatch(CompletableFuture::isDone), "long polls wait while nothing changes");
        long removed = System.nanoTime();
        FileTrees.deleteTree(root.resolve("resourceclaims/gone")); // the kubelet unprepares the claim
        for (CompletableFuture<HttpResponse<String>> poll : polls) {
            HttpResponse<String> r = poll.get(10, TimeUnit.SECONDS);
            assertProblem(r, 404, "not-found");
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - removed);
        System.out.printf("[faults] unprepare: %d long polls answered 404 not-found within %d ms%n", polls.size(), millis);
        assertTrue(millis < 5_000, "waiters answered promptly: " + millis + " ms");
        assertEquals(1, generation("keep"), "the other claims are untouched");
        assertLive();
    }

    @Test
    @Order(2)
    void fileThatTurnsUnreadableKeepsServingTheLastGoodObjectAsStale() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(unprivileged, "needs a sidecar that permissions apply to");
        assertEquals(1, generation("locked"));
        Path locked = file("locked");
        // The driver rewrites the file and leaves it unreadable to the sidecar's user: the poll sees the new
        // size/time, the read fails with EACCES.
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
        write("locked", 2);
        String path = "/claims/locked/gpu/drivers/" + DRIVER;
        Eventually.awaitTrue(POLL_BOUND.multipliedBy(3), "a stale Warning appears",
                () -> get(path).headers().firstValue("Warning").isPresent());
        HttpResponse<String> stale = get(path);
        assertEquals(200, stale.statusCode());
        assertEquals(1, JSON.readTree(stale.body()).at("/metadata/generation").asLong(), "last good object served");
        String warning = stale.headers().firstValue("Warning").orElseThrow();
        assertTrue(warning.startsWith("110 - \"stale: ") && warning.contains("ermission denied"), warning);

        // A file that never decoded and cannot be read: 503 unreadable, with Retry-After.
        write("sealed", 1);
        Files.setPosixFilePermissions(file("sealed"), PosixFilePermissions.fromString("---------"));
        Eventually.awaitTrue(Duration.ofSeconds(5), () -> "sealed claim found: " + get("/claims/sealed/gpu").body(),
                () -> get("/claims/sealed/gpu").statusCode() == 503);
        HttpResponse<String> sealed = get("/claims/sealed/gpu");
        assertProblem(sealed, 503, "unreadable");
        assertTrue(sealed.headers().firstValue("Retry-After").isPresent(), "Retry-After on a transient failure");
        assertLive();

        // Permissions back: chmod changes no size or time, the failed read's retry (backoff ≤ 2 s) recovers.
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(file("sealed"), PosixFilePermissions.fromString("rw-r--r--"));
        Eventually.awaitTrue(Duration.ofSeconds(5), "recovers to generation 2 without Warning",
                () -> generation("locked") == 2 && get(path).headers().firstValue("Warning").isEmpty());
        Eventually.awaitTrue(Duration.ofSeconds(5), "sealed claim recovers", () -> generation("sealed") == 1);
    }

    @Test
    @Order(3)
    void rootDeletedAndRecreatedServesNothingThenEverythingAgain() throws Exception {
        assertEquals(1, generation("keep"));
        String etag = get("/claims").headers().firstValue("ETag").orElseThrow();
        CompletableFuture<HttpResponse<String>> listWaiter = sidecar.http.sendAsync(HttpRequest.newBuilder(
                sidecar.uri("/claims?waitForChange=true&timeoutSeconds=60&lastEtag="
                        + java.net.URLEncoder.encode(etag, StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
        FileTrees.deleteTree(root);
        Eventually.awaitTrue(Duration.ofSeconds(3), "claims answer 404 while the root is gone",
                () -> get("/claims/keep/gpu").statusCode() == 404);
        assertProblem(get("/claims/keep/gpu"), 404, "not-found");
        assertProblem(get("/claims/keep"), 404, "not-found");
        HttpResponse<String> list = get("/claims");
        assertEquals(200, list.statusCode());
        assertEquals(0, JSON.readTree(list.body()).path("claims").size(), list.body());
        assertEquals(200, get("/template-claims").statusCode());
        HttpResponse<String> changed = listWaiter.get(10, TimeUnit.SECONDS);
        // Answered at the first change: the files go one by one, so it may still list some of them.
        assertEquals(200, changed.statusCode(), "a long poll on the list is answered when the root goes");
        assertTrue(!etag.equals(changed.headers().firstValue("ETag").orElse(etag)), "with a new ETag");
        assertLive();

        long recreated = System.nanoTime();
        write("keep", 5);
        Eventually.awaitTrue(Duration.ofSeconds(3), "served again after the root returns",
                () -> generation("keep") == 5);
        System.out.printf("[faults] root recreated: served again after %d ms%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - recreated));
        assertEquals(1, JSON.readTree(get("/claims").body()).path("claims").size());
    }

    @Test
    @Order(4)
    void withoutInotifyChangesAreStillSeenWithinThePollBound() throws Exception {
        Path polled = Files.createTempDirectory("dra-nowatch");
        Path saved = root;
        root = polled;
        try {
            write("poll", 1);
            try (PackagedSidecar noWatch = PackagedSidecar.start("faults-nowatch", polled, List.of(), List.of(),
                    Map.of("dra.metadata.watch", "false"))) {
                PackagedSidecar previous = sidecar;
                sidecar = noWatch;
                try {
                    assertEquals(1, generation("poll"));
                    for (long g = 2; g <= 6; g++) {
                        long written = System.nanoTime();
                        write("poll", g);
                        long want = g;
                        Eventually.awaitTrue(POLL_BOUND, "in-place rewrite " + g + " seen within " + POLL_BOUND,
                                () -> generation("poll") == want);
                        System.out.printf("[faults] no inotify: rewrite seen after %d ms%n",
                                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - written));
                    }
                    // New claims are found by the periodic walk (rescan interval 2 s), removed ones at the next poll.
                    write("added", 1);
                    Eventually.awaitTrue(Duration.ofSeconds(4), "new claim found by the rescan",
                            () -> generation("added") == 1);
                    FileTrees.deleteTree(polled.resolve("resourceclaims/poll"));
                    Eventually.awaitTrue(POLL_BOUND, "removed claim gone within the poll bound",
                            () -> get("/claims/poll/gpu").statusCode() == 404);
                } finally {
                    sidecar = previous;
                }
            }
        } finally {
            root = saved;
        }
    }

}
