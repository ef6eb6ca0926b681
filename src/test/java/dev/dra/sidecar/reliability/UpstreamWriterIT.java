package dev.dra.sidecar.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.GoOracle;
import dev.dra.sidecar.testsupport.PackagedSidecar;
import dev.dra.sidecar.testsupport.UpstreamWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged sidecar fed by the upstream writer itself ({@link UpstreamWriter}: {@code kubeletplugin} v0.37.2,
 * unmodified), its file mounted as the CDI spec that writer produces tells the runtime to (a read-only
 * single-file bind mount, here relative to the sidecar's root, in a private mount namespace). The prepared object
 * is served as written. The writer's update replaces the host file by rename (a new inode, 0644), which the mount
 * cannot show: the sidecar keeps serving generation 1 marked {@code stale: detached}, reports it in the metrics and
 * the readiness data and stays ready. After the writer's cleanup the mount still holds the deleted first file, so
 * that is still what is served, still marked detached.
 */
class UpstreamWriterIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration BOUND = Duration.ofSeconds(5);
    private static final String PATH = "/claims/" + UpstreamWriter.CLAIM + "/" + UpstreamWriter.REQUEST + "/drivers/"
            + UpstreamWriter.DRIVER;

    @TempDir
    Path temp;

    @Test
    void theUpstreamWritersFilesAreServedAndItsUpdateByRenameIsReportedDetached() throws Exception {
        Assumptions.assumeTrue(GoOracle.goCommand().isPresent(), "no go command: the upstream writer cannot be built");
        Assumptions.assumeTrue(PackagedSidecar.canBindMount(), "not root or no unshare: no mount namespace with a bind mount");
        UpstreamWriter writer = UpstreamWriter.build(temp.resolve("plugin"), temp.resolve("cdi"));
        writer.prepare();

        JsonNode mount = JSON.readTree(writer.cdiSpec().toFile()).path("devices").path(0).path("containerEdits")
                .path("mounts").path(0);
        assertEquals("[\"ro\",\"bind\"]", mount.path("options").toString(), mount.toString());
        Path host = Path.of(mount.path("hostPath").asText());
        String containerPath = mount.path("containerPath").asText();
        assertTrue(containerPath.startsWith(GoOracle.CONTAINER_DIR + "/"), containerPath);
        Path root = temp.resolve("root");
        Path target = root.resolve(containerPath.substring(GoOracle.CONTAINER_DIR.length() + 1));
        Files.createDirectories(target.getParent());
        Files.createFile(target);
        String t = PackagedSidecar.shellQuote(target.toString());
        List<String> mounts = List.of("mount --bind " + PackagedSidecar.shellQuote(host.toString()) + " " + t,
                "mount -o remount,bind,ro " + t);
        JsonNode prepared = JSON.readTree(host.toFile());
        Object firstInode = Files.getAttribute(host, "unix:ino");

        try (PackagedSidecar sidecar = PackagedSidecar.start("upstream-writer", root,
                List.of("unshare", "-m", "--propagation", "private"), mounts, Map.of())) {
            HttpResponse<String> response = sidecar.get(PATH);
            assertEquals(200, response.statusCode(), response.body());
            assertTrue(response.headers().firstValue("Warning").isEmpty(), response.headers().toString());
            assertServed(prepared, response, "model-1");

            writer.update();
            assertNotEquals(firstInode, Files.getAttribute(host, "unix:ino"), "the writer replaced the file by rename");
            assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(host)));
            JsonNode updated = JSON.readTree(host.toFile());
            assertEquals(2, updated.path("metadata").path("generation").asLong(), updated.toString());
            Eventually.awaitTrue(BOUND, () -> "the rename is reported to clients:\n" + sidecar.log(),
                    () -> warning(sidecar).contains("stale: detached: "));
            assertServed(prepared, sidecar.get(PATH), "model-1");

            String metrics = sidecar.management("/q/metrics").body();
            assertTrue(metrics.contains("dra_files{state=\"detached\"} 1.0"), metrics);
            HttpResponse<String> ready = sidecar.management("/q/health/ready");
            assertEquals(200, ready.statusCode(), "what is served is still the last valid metadata: " + ready.body());
            JsonNode data = PackagedSidecar.checkData(ready.body(), "dra-metadata-present");
            assertTrue(data.path("detached").asText().contains(target.toString()), ready.body());

            writer.cleanup();
            assertFalse(Files.exists(writer.claimDir()), "cleanup removed the claim's host directory");
            assertFalse(Files.exists(writer.cdiSpec()), "cleanup removed the CDI spec");
            Eventually.pause(Duration.ofMillis(500));
            response = sidecar.get(PATH);
            assertServed(prepared, response, "model-1");
            assertTrue(warning(sidecar).contains("stale: detached: "), warning(sidecar));
        }
    }

    /** The response is the writer's object at generation 1: same claim, request and device attributes. */
    private static void assertServed(JsonNode written, HttpResponse<String> response, String model) throws IOException {
        assertEquals(200, response.statusCode(), response.body());
        JsonNode served = JSON.readTree(response.body());
        assertEquals(written.path("metadata"), served.path("metadata"), response.body());
        JsonNode device = served.path("requests").path(0).path("devices").path(0);
        assertEquals(written.path("requests").path(0).path("devices").path(0).path("attributes"), device.path("attributes"),
                response.body());
        assertEquals(model, device.path("attributes").path("model").path("string").asText(), response.body());
    }

    private static String warning(PackagedSidecar sidecar) {
        try {
            return sidecar.get(PATH).headers().firstValue("Warning").orElse("");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
