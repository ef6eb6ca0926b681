package dev.dra.sidecar.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.LocalPorts;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.PackagedSidecar;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The sidecar's postStart hook as kubelet runs it in the container, {@code java @/deployments/await-started <seconds>}
 * (src/main/docker/await-started, with the image's class path mapped to the build's), against the packaged sidecar:
 * it waits while nothing listens yet, returns 0 once the sidecar has started, and fails with the sidecar's reason
 * when it cannot start.
 */
class AwaitStartedIT {

    private static final Path ARGUMENTS = Path.of("src/main/docker/await-started");
    private static final String IMAGE_CLASS_PATH = "/deployments/app/*";

    @Test
    void theHookWaitsUntilTheSidecarHasStartedThenReturnsZero() throws Exception {
        int managementPort = LocalPorts.free();
        Process hook = hook(managementPort, "60");
        assertTrue(!hook.waitFor(2, TimeUnit.SECONDS), "nothing listens yet: the hook keeps waiting");
        try (PackagedSidecar sidecar = PackagedSidecar.start("await-started", OpsTestTree.copyOfSample(), List.of(),
                List.of(), Map.of("dra.metadata.expected-claims", "claims/gpu-claim/gpu",
                        "quarkus.management.port", Integer.toString(managementPort)))) {
            assertTrue(hook.waitFor(30, TimeUnit.SECONDS), "the hook returned once the sidecar started");
            assertEquals(0, hook.exitValue(), output(hook));
        } finally {
            hook.destroyForcibly();
        }
    }

    /** A claim whose file is there but does not decode (a driver that never finishes writing) holds the app. */
    @Test
    void aSidecarThatCannotStartFailsTheHookWithItsReason() throws Exception {
        Path root = OpsTestTree.copyOfSample();
        Files.writeString(root.resolve("resourceclaims/gpu-claim/gpu/gpu.example.com-metadata.json"),
                "{\"kind\":\"DeviceMetadata\",\"apiVersion\":");
        try (PackagedSidecar sidecar = PackagedSidecar.start("await-started-failing", root, List.of(), List.of(),
                Map.of("dra.metadata.expected-claims", "claims/gpu-claim/gpu"))) {
            Process hook = hook(sidecar.managementPort, "2");
            assertTrue(hook.waitFor(30, TimeUnit.SECONDS), "the hook gave up after its 2 s");
            String output = output(hook);
            assertEquals(1, hook.exitValue(), output);
            assertTrue(output.startsWith("the sidecar did not start within 2 s; /q/health/started on port "
                    + sidecar.managementPort + " answered: HTTP/1.1 503 Service Unavailable {"), output);
            assertTrue(output.contains("failing: malformed-stream"), "the sidecar's reason, as kubelet's log and the "
                    + "termination message show it: " + output);
        }
    }

    /**
     * Nothing mounted for the expected claim: nothing can come later, so the hook returns at once and the app starts;
     * the sidecar's log says why, naming both causes.
     */
    @Test
    void aSidecarThatSeesNoMetadataLetsTheAppStartAndItsLogSaysBothCauses() throws Exception {
        try (PackagedSidecar sidecar = PackagedSidecar.start("await-started-absent", OpsTestTree.NOT_MOUNTED, List.of(), List.of(),
                Map.of("dra.metadata.expected-claims", "claims/gpu-claim/gpu"))) {
            Process hook = hook(sidecar.managementPort, "60");
            assertTrue(hook.waitFor(30, TimeUnit.SECONDS), "the hook returned");
            assertEquals(0, hook.exitValue(), output(hook));
            Eventually.awaitTrue(Duration.ofSeconds(10), () -> "the sidecar's log says why: " + sidecar.log(),
                    () -> sidecar.log().contains("Expected claim claims/gpu-claim/gpu is absent")
                            && sidecar.log().contains("does not list claim gpu-claim in its own resources.claims")
                            && sidecar.log().contains("its driver writes no metadata file"));
        }
    }

    @Test
    void aBadArgumentExitsTwoWithTheUsage() throws Exception {
        Process hook = hook(LocalPorts.free(), "two minutes");
        assertTrue(hook.waitFor(30, TimeUnit.SECONDS));
        String output = output(hook);
        assertEquals(2, hook.exitValue(), output);
        assertTrue(output.startsWith("usage: java @/deployments/await-started <seconds>"), output);
    }

    private static Process hook(int managementPort, String seconds) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String line : Files.readAllLines(ARGUMENTS)) {
            String word = line.strip();
            if (!word.isEmpty() && !word.startsWith("#")) {
                command.add(word.equals(IMAGE_CLASS_PATH)
                        ? PackagedSidecar.RUNNER.resolveSibling("app").toAbsolutePath() + "/*" : word);
            }
        }
        assertTrue(command.contains(AwaitStarted.class.getName()), "the argument file runs " + AwaitStarted.class.getName());
        command.add(seconds);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("QUARKUS_MANAGEMENT_PORT", Integer.toString(managementPort));
        return builder.start();
    }

    private static String output(Process process) throws IOException {
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    }
}
