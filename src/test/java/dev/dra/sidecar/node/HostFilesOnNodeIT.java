package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.GoOracle;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The driver's file on the host, as containerd's bind mount (from the driver's CDI spec) carries it into the pod of
 * deploy/kubernetes/base: a rewrite in place (as drivers on the v0.36 helper do) is served, a replacement by
 * rename (as the upstream helper does now) is reported detached; and the sidecar's memory cgroup on the node stays
 * inside the manifest's limit while the app runs the README's examples.
 */
class HostFilesOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    private static final Duration PROPAGATION = Duration.ofSeconds(30);
    private static Pod pod;
    private static Path hostFile;

    @BeforeAll
    static void startThePod() throws Exception {
        String namespace = NODE.restrictedNamespace("host-files", Map.of());
        Pod submitted = NODE.pods().basePod(namespace, "host-files");
        NODE.client().resource(submitted).create();
        pod = NODE.pods().awaitAppRunning(submitted);
        hostFile = NODE.pods().hostFile(namespace, "gpu-claim", "gpu");
    }

    private static byte[] withGeneration(long generation) throws Exception {
        ObjectNode stream = (ObjectNode) GoOracle.JSON.readTree(Files.readAllBytes(hostFile));
        ((ObjectNode) stream.get("metadata")).put("generation", generation);
        return GoOracle.JSON.writeValueAsBytes(stream);
    }

    private static String driverView() throws Exception {
        return NODE.pods().exec(pod, AppPods.APP, "curl", "-s",
                "localhost:8089/claims/gpu-claim/gpu/drivers/" + NODE.node().env.get("driver"));
    }

    @Test
    void aRewriteInPlaceIsServedAndAReplacementByRenameIsReportedDetached() throws Exception {
        long generation = GoOracle.JSON.readTree(Files.readAllBytes(hostFile)).at("/metadata/generation").asLong();
        byte[] rewritten = withGeneration(generation + 1);
        Files.write(hostFile, rewritten, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        JsonNode expected = NODE.goReader().oracle().decode(rewritten).get("object");
        String served = Eventually.await(PROPAGATION, () -> {
            try {
                return driverView();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, body -> body.contains("\"generation\":" + (generation + 1)), "the rewrite in place served in the pod");
        assertEquals(expected, NODE.goReader().oracle().canonical(GoOracle.JSON.readTree(served)).get("object"),
                "the rewritten file, as Go decodes it");

        Path next = hostFile.resolveSibling(".metadata.json.tmp");
        Files.write(next, withGeneration(generation + 2));
        Files.move(next, hostFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        String headers = Eventually.await(PROPAGATION, () -> {
            try {
                return NODE.pods().exec(pod, AppPods.APP, "curl", "-s", "-o", "/dev/null", "-D", "-",
                        "localhost:8089/claims/gpu-claim/gpu");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, h -> h.contains("stale: detached"), "the replacement by rename reported detached in the pod");
        assertTrue(headers.startsWith("HTTP/1.1 200"), "the last object is still served: " + headers);
        assertTrue(driverView().contains("\"generation\":" + (generation + 1)),
                "nothing newer reaches the pod through the pinned mount");
    }

    @Test
    void theSidecarsMemoryCgroupStaysInsideTheManifestsLimitUnderTheReadmesExamples() throws Exception {
        String id = AppPods.status(NODE.pods().get(pod), AppPods.SIDECAR).getContainerID().replaceFirst("^containerd://", "");
        String memory = Files.readAllLines(Path.of("/proc", Long.toString(NODE.pods().hostPid(id)), "cgroup")).stream()
                .filter(line -> line.split(":")[1].equals("memory")).findFirst().orElseThrow().split(":", 3)[2];
        Path cgroup = Path.of("/sys/fs/cgroup/memory" + memory);
        long limit = Long.parseLong(Files.readString(cgroup.resolve("memory.limit_in_bytes")).strip());
        assertEquals(160L * 1024 * 1024, limit, "the manifest's limit, as kubelet set it on the sidecar's cgroup");
        for (int round = 0; round < 20; round++) {
            for (String path : new String[] {"/claims", "/claims/gpu-claim/gpu", "/template-claims/my-gpu/gpu"}) {
                NODE.pods().exec(pod, AppPods.APP, "curl", "-s", "-o", "/dev/null", "localhost:8089" + path);
            }
        }
        long peak = Long.parseLong(Files.readString(cgroup.resolve("memory.max_usage_in_bytes")).strip());
        System.err.printf("[node] sidecar memory cgroup: peak %.1f MiB of %d MiB%n", peak / 1048576.0, limit >> 20);
        assertTrue(peak < limit, "peak " + peak + " below the limit " + limit);
        assertEquals("0", Files.readString(cgroup.resolve("memory.failcnt")).strip(), "never hit the limit");
    }
}
