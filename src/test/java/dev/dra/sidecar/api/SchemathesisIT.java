package dev.dra.sidecar.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dra.sidecar.testsupport.PackagedSidecar;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An independent API fuzzer: Schemathesis (pinned in {@code src/test/schemathesis/requirements.txt}) runs every
 * operation of the OpenAPI document the packaged sidecar serves, with positive and negative data and all its
 * checks (server errors, status codes, content types, response schemas, headers), against the sample tree. Any
 * failed check fails this test; its output is in {@code target/schemathesis/}. Skipped, saying why, where
 * Schemathesis cannot be installed (no python3 venv, PyPI out of reach).
 */
class SchemathesisIT {

    private static final Path SCRIPTS = Path.of("src/test/schemathesis");
    private static final Path SAMPLE = Path.of("deploy/sample/dra-device-attributes");
    private static final Path OUTPUT = Path.of("target/schemathesis");

    @Test
    void everyOperationPassesEveryCheck() throws Exception {
        Files.createDirectories(OUTPUT);
        Process install = new ProcessBuilder("bash", SCRIPTS.resolve("install.sh").toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String why = new String(install.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(install.waitFor(10, TimeUnit.MINUTES), "install.sh finished");
        assumeTrue(install.exitValue() == 0, "Schemathesis cannot be installed: " + why);

        try (PackagedSidecar sidecar = PackagedSidecar.start("schemathesis", SAMPLE.toAbsolutePath(), List.of(), List.of(),
                Map.of())) {
            Path log = OUTPUT.resolve("run.log");
            Process run = new ProcessBuilder("bash", SCRIPTS.resolve("run.sh").toString(), "http://127.0.0.1:" + sidecar.port,
                    "http://127.0.0.1:" + sidecar.managementPort, OUTPUT.toAbsolutePath().toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            assertTrue(run.waitFor(15, TimeUnit.MINUTES), "Schemathesis finished within 15 minutes");
            String output = Files.readString(log, StandardCharsets.UTF_8);
            System.out.println(output.lines().filter(l -> l.contains("generated") || l.contains("Seed:")).toList());
            assertEquals(0, run.exitValue(), () -> "Schemathesis found failures (" + log + "):\n" + output);
            assertTrue(sidecar.isAlive(), "the sidecar is still running");
        }
    }
}
