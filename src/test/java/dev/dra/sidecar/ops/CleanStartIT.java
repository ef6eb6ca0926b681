package dev.dra.sidecar.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.testsupport.CleanLog;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.PackagedSidecar;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A normal start of the packaged jar says nothing wrong: operators alert on WARN and ERROR lines, so a start on a
 * healthy tree, the requests a pod's probes, scrapes and app make, and a SIGTERM leave none in the whole log; and
 * {@code /q/health} lists every check once; and it runs no other program. (The image's start:
 * {@code image.SidecarImageIT}.)
 */
class CleanStartIT {

    @Test
    void aNormalStartLogsNoWarningAndListsEveryHealthCheckOnce() throws Exception {
        try (PackagedSidecar sidecar = PackagedSidecar.start("packaged-jar-clean-start", OpsTestTree.copyOfSample(),
                List.of(), List.of(), Map.of("dra.metadata.expected-claims", "claims/gpu-claim/gpu"))) {
            Eventually.await(Duration.ofSeconds(60), () -> management(sidecar, "/q/health/started").statusCode(),
                    s -> s == 200, "started probe UP");
            for (String path : List.of("/q/health/live", "/q/health/ready", "/q/metrics", "/q/openapi")) {
                assertEquals(200, sidecar.management(path).statusCode(), path);
            }
            assertEquals(200, sidecar.get("/claims/gpu-claim/gpu").statusCode());
            // File notifications load JNA, which by default runs `ldconfig -p` when its classes initialize: a child
            // process at every start, and a JDK thread left behind to reap it. The image's options turn that off.
            Eventually.await(Duration.ofSeconds(60), () -> management(sidecar, "/q/health/ready").body(),
                    body -> body.contains("inotify"), "file notifications on");
            assertFalse(sidecar.threadNames().containsKey("process reaper"),
                    "a child process was started: " + sidecar.threadNames());
            assertEquals(404, sidecar.get("/claims/no-such-claim/gpu").statusCode());

            HttpResponse<String> health = sidecar.management("/q/health");
            assertEquals(200, health.statusCode(), health.body());
            List<String> names = new ArrayList<>();
            for (JsonNode check : new ObjectMapper().readTree(health.body()).get("checks")) {
                names.add(check.get("name").asText());
            }
            Set<String> once = new HashSet<>();
            assertEquals(List.of(), names.stream().filter(name -> !once.add(name)).toList(),
                    "health checks listed more than once in " + names);
            // Quarkus' own readiness check of a shutdown delay (quarkus.shutdown.delay-enabled) beside them.
            assertEquals(Set.of("dra-metadata-refresh", "dra-metadata-present", "dra-metadata-present-at-start",
                    "Graceful Shutdown"), Set.copyOf(names), "one check per probe");

            assertTrue(sidecar.terminate(Duration.ofSeconds(15)), "SIGTERM ends the sidecar");
            String log = sidecar.log();
            assertTrue(log.contains("started in"), log);
            String version = dev.dra.sidecar.testsupport.ProjectVersion.get();
            assertTrue(log.contains("dra-metadata-sidecar " + version + " on JVM"), "the start log names the pom's version "
                    + version + ":\n" + log);
            assertEquals(List.of(), CleanLog.alertingLines(log), "WARN or ERROR lines of a normal start:\n" + log);
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
