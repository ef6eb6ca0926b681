package dev.dra.sidecar.image;

import static dev.dra.sidecar.image.PodLikeContainer.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.testsupport.CleanLog;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.FileTrees;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The container image as users deploy it: built from src/main/docker/ with the README's command, run with podman
 * the way deploy/kubernetes/components/sidecar/sidecar.yaml runs it (src/test/image/run-like-pod.sh), on the
 * sample tree plus one single-file bind mount that the host rewrites in place: a start that logs no WARN or ERROR
 * line, what a local client can make it hold ({@link WorstLocalLoad}), a clean stop; what the image is made of
 * ({@link ImageContents}: size, OCI labels, files, runtime modules) and its SBOM ({@link ImageSbom}). Skipped, saying
 * why, where podman cannot run containers.
 */
class SidecarImageIT {

    private static final List<String> CONTAINERS = new ArrayList<>();
    private static Path tree;
    private static Path hostFile;

    @BeforeAll
    static void buildTheImage() throws Exception {
        String why = Podman.whyPodmanCannotRun();
        Assumptions.assumeTrue(why == null, () -> "image test skipped: " + why);
        buildImage();

        tree = FileTrees.copyToTemporaryDirectory("deploy/sample/dra-device-attributes", "dra-image-tree");
        FileTrees.makeReadableByAll(tree); // the image's user 1001 reads it
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

    private static String startLikePod(String name, String... extraPodmanOptions) throws IOException {
        runLikePod(name, tree, hostFile, extraPodmanOptions);
        CONTAINERS.add(name);
        return name;
    }

    @Test
    void runsAsThePodRunsItServesRewritesSurvivesALongPollFloodAndStopsCleanly() throws Exception {
        String name = startLikePod("dra-image-it");
        System.out.printf("[image] started UP %.2f s after the container's process started%n", awaitStarted(name));
        // The image has no shell nor grep to ask: the host reads the JVM's (PID 1 of the container) status.
        String status = Files.readString(Path.of("/proc", inspect(name, "{{.State.Pid}}"), "status"));
        assertTrue(status.contains("\nUid:\t1001\t1001\t1001\t1001\n") && status.contains("\nGid:\t1001\t1001\t1001\t1001\n"),
                "the image's numeric non-root user:\n" + status);
        JsonNode config = new ObjectMapper().readTree(Podman.podman(30, "inspect", name).output()).get(0);
        assertTrue(config.at("/HostConfig/ReadonlyRootfs").asBoolean(), "read-only root");
        assertTrue(status.contains("\nCapEff:\t0000000000000000\n"), "no capabilities");
        assertTrue(status.contains("\nNoNewPrivs:\t1\n"), "no-new-privileges");

        HttpResponse<String> claims = get(API + "/claims");
        assertEquals(200, claims.statusCode(), claims.body());
        assertEquals("{\"claims\":[{\"name\":\"gpu-claim\",\"requests\":[\"gpu\"]},{\"name\":\"net-claim\",\"requests\":[\"nic\"]}],\"devices\":\"/devices\"}\n",
                claims.body(), "the sample tree, on 127.0.0.1:8089");
        // JNA's native library loads under the read-only root, with no writable directory: the store watches each file.
        assertTrue(get(MANAGEMENT + "/q/metrics").body().contains("dra_watch_mode{mode=\"inotify\"} 1.0"),
                "inotify watch mode in the image:\n" + logs(name));
        // A normal start says nothing an operator would be alerted by, and lists each health check once.
        assertEquals(List.of(), CleanLog.alertingLines(logs(name)), "WARN or ERROR lines of a normal start");
        List<String> checks = new ArrayList<>();
        new ObjectMapper().readTree(get(MANAGEMENT + "/q/health").body()).get("checks")
                .forEach(check -> checks.add(check.get("name").asText()));
        assertEquals(checks.stream().distinct().toList(), checks, "every health check listed once");

        // The host rewrites the bind-mounted file in place (same inode), as a driver does.
        String nicPath = API + "/claims/net-claim/nic";
        String before = get(nicPath).headers().firstValue("ETag").orElseThrow();
        rewriteInPlace("eth1", "eth9");
        HttpResponse<String> rewritten = Eventually.await(Duration.ofSeconds(10), () -> get(nicPath),
                r -> r.body().contains("\"interfaceName\":\"eth9\""), "the in-place rewrite is served");
        String etag = rewritten.headers().firstValue("ETag").orElseThrow();
        assertFalse(etag.equals(before));

        WorstLocalLoad.flood(name, nicPath, etag, () -> rewriteInPlace("eth9", "eth7"));
        WorstLocalLoad.silentConnections(name);
        WorstLocalLoad.requestBodies(name);
        WorstLocalLoad.pipelinedBurst(name);

        long stopping = System.nanoTime();
        int timeout = shutdownTimeoutSeconds();
        Podman.Result stop = Podman.podman(timeout + 30, "stop", "--time", String.valueOf(timeout), name);
        long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping);
        assertTrue(stop.ok(), stop.output());
        assertEquals("0", inspect(name, "{{.State.ExitCode}}"), "SIGTERM ends the sidecar with 0:\n" + logs(name));
        assertTrue(stopMillis < timeout * 1000L, "stopped within the " + timeout + " s shutdown timeout: " + stopMillis + " ms");
        System.out.printf("[image] podman stop: exit 0 after %d ms%n", stopMillis);
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

    /** Small, labelled, and nothing in it the sidecar does not run; its SBOM lists what it is made of. */
    @Test
    void isSmallLabelledAndListsWhatItIsMadeOf() throws Exception {
        ImageContents.sizeWithinTarget();
        ImageContents.labels();
        ImageContents.files();
        ImageContents.runtimeModules();
        ImageSbom.writeAndCheck();
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
        Podman.Result run = Podman.podman(120, "run", "--name", name, "--network", "none", "--entrypoint", "/opt/jre/bin/java",
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

}
