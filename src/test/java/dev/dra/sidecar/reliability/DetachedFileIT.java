package dev.dra.sidecar.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.MetadataFiles;
import dev.dra.sidecar.testsupport.PackagedSidecar;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged sidecar with its file as a pod has it (a read-only single-file bind mount, in a private mount
 * namespace), and a driver that replaces the host file by rename instead of rewriting it: the mount stays on the
 * old, deleted file. Clients keep getting its last object, marked {@code stale: detached}; the metrics, the
 * readiness data and one WARN line say what happened and what fixes it; readiness stays UP. Before that, with the
 * image's JVM options (native library loaded from a directory, never unpacked), file notifications are on and an
 * in-place rewrite is served.
 */
class DetachedFileIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration BOUND = Duration.ofSeconds(5);
    private static final String PATH = "/claims/c/r/drivers/gpu.example.com";

    @TempDir
    Path temp;

    static String version(long generation) {
        return """
                {"kind":"DeviceMetadata","apiVersion":"metadata.resource.k8s.io/v1beta1",\
                "metadata":{"name":"c","namespace":"default","uid":"uid-c","generation":%d},\
                "requests":[{"name":"r","devices":[{"driver":"gpu.example.com","pool":"p","name":"gpu-0"}]}]}
                """.formatted(generation);
    }

    @Test
    void aFileReplacedByRenameOnTheHostIsServedStaleDetachedAndReported() throws Exception {
        Assumptions.assumeTrue(PackagedSidecar.canBindMount(), "not root or no unshare: no mount namespace with a bind mount");
        Path host = Files.createDirectories(temp.resolve("driver")).resolve("metadata.json");
        Files.writeString(host, version(1));
        Path root = temp.resolve("root");
        Path target = root.resolve("resourceclaims/c/r/gpu.example.com-metadata.json");
        Files.createDirectories(target.getParent());
        Files.createFile(target);
        String t = PackagedSidecar.shellQuote(target.toString());
        List<String> mounts = List.of("mount --bind " + PackagedSidecar.shellQuote(host.toString()) + " " + t,
                "mount -o remount,bind,ro " + t);
        try (PackagedSidecar sidecar = PackagedSidecar.start("detached", root, List.of("unshare", "-m", "--propagation", "private"),
                mounts, Map.of())) {
            String metrics = sidecar.management("/q/metrics").body();
            assertTrue(metrics.contains("dra_watch_mode{mode=\"inotify\"} 1.0"), "file notifications on:\n" + metrics);
            assertTrue(metrics.contains("dra_inotify_watches{kind=\"file\"} 1.0"), "one file watched:\n" + metrics);
            assertEquals(1, generation(sidecar));

            MetadataFiles.rewriteInPlace(host, version(2).getBytes(StandardCharsets.UTF_8));
            Eventually.awaitTrue(BOUND, "an in-place rewrite is served", () -> generation(sidecar) == 2);

            MetadataFiles.replaceByRename(host, version(3));
            Eventually.awaitTrue(BOUND, () -> "the rename is reported to clients:\n" + sidecar.log(),
                    () -> warning(sidecar).contains("stale: detached: "));
            var response = sidecar.get(PATH);
            assertEquals(200, response.statusCode());
            assertEquals(2, JSON.readTree(response.body()).path("metadata").path("generation").asLong(),
                    "the last object read through the mount is served");
            assertTrue(warning(sidecar).contains("restart"), warning(sidecar));

            metrics = sidecar.management("/q/metrics").body();
            assertTrue(metrics.contains("dra_files{state=\"detached\"} 1.0"), metrics);
            assertTrue(metrics.contains("dra_files{state=\"ok\"} 0.0"), metrics);
            var ready = sidecar.management("/q/health/ready");
            assertEquals(200, ready.statusCode(), "what is served is still the last valid metadata: " + ready.body());
            JsonNode data = PackagedSidecar.checkData(ready.body(), "dra-metadata-present");
            assertTrue(data.path("detached").asText().contains(target.toString()), ready.body());
            assertTrue(data.path("watch-mode").asText().equals("inotify"), ready.body());

            // Nothing written to the host's new file can reach the mount; the store does not pretend otherwise.
            MetadataFiles.rewriteInPlace(host, version(4).getBytes(StandardCharsets.UTF_8));
            Eventually.pause(Duration.ofMillis(500));
            assertEquals(2, generation(sidecar));
            List<String> warnings = sidecar.log().lines().filter(l -> l.contains("WARN") && l.contains("detached"))
                    .toList();
            assertEquals(1, warnings.size(), "one WARN line: " + warnings);
            assertTrue(warnings.get(0).contains("restart the pod") && warnings.get(0).contains("in place"),
                    warnings.get(0));
            System.out.println("[detached] " + warnings.get(0).replaceFirst(".*WARN", "WARN"));
        }
    }

    private static long generation(PackagedSidecar sidecar) {
        try {
            return JSON.readTree(sidecar.get(PATH).body()).path("metadata").path("generation").asLong();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String warning(PackagedSidecar sidecar) {
        try {
            return sidecar.get(PATH).headers().firstValue("Warning").orElse("");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
