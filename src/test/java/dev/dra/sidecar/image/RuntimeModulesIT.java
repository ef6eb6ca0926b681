package dev.dra.sidecar.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * src/main/docker/runtime-modules follows the packaged application: what {@code jdeps --print-module-deps} of the
 * Java 25 JDK finds in target/quarkus-app is exactly the modules the list links plus those it leaves out with a
 * reason, so that a dependency that starts to need another module fails here, not at a pod's start. (That the
 * linked runtime runs the sidecar: SidecarImageIT.) Skipped, saying why, without a Temurin 25 JDK here.
 */
class RuntimeModulesIT {

    static final Path JDEPS = Path.of(System.getProperty("dra.temurin25.home", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "jdeps");

    @Test
    void theListIsWhatJdepsFinds() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(JDEPS), "no Temurin 25 jdeps at " + JDEPS);
        Path jar = Path.of("target/quarkus-app/quarkus-run.jar");
        assertTrue(Files.isRegularFile(jar), "./mvnw package made " + jar);
        Process jdeps = new ProcessBuilder(JDEPS.toString(), "--print-module-deps", "--ignore-missing-deps",
                "--multi-release", "25", "--recursive", jar.toString()).redirectErrorStream(true).start();
        String output = new String(jdeps.getInputStream().readAllBytes()).strip();
        assertEquals(0, jdeps.waitFor(), output);
        Set<String> found = new TreeSet<>(List.of(output.lines().reduce((a, b) -> b).orElseThrow().split(",")));

        Set<String> listed = new TreeSet<>();
        for (String line : Files.readAllLines(ImageContents.RUNTIME_MODULES)) {
            if (line.matches("-?[a-z][a-z.]*")) {
                listed.add(line.replaceFirst("^-", ""));
            }
        }
        assertEquals(found, listed, "jdeps finds these modules; runtime-modules links or leaves out with a reason "
                + "exactly these");
    }
}
