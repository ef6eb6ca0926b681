package dev.dra.sidecar.image;

import static dev.dra.sidecar.image.PodLikeContainer.IMAGE;
import static dev.dra.sidecar.image.PodLikeContainer.VERSION;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * The image's software bill of materials: Syft (built by src/test/syft/build.sh at the version its go.sum pins)
 * reads the image saved by podman and writes SPDX JSON to {@value #SBOM}, which lists the C library, the Java
 * runtime and every jar of the application. Skipped, saying why, without a Go toolchain to build Syft.
 */
final class ImageSbom {

    static final String SBOM = "target/dra-metadata-sidecar.spdx.json";
    private static final String ARCHIVE = "target/dra-metadata-sidecar-image.tar";

    private ImageSbom() {}

    static void writeAndCheck() throws Exception {
        long started = System.nanoTime();
        Podman.Result syft = Podman.script(3600, "../syft/build.sh", List.of());
        Assumptions.assumeFalse(syft.exit() == 3, () -> "SBOM skipped: " + syft.output().strip());
        assertTrue(syft.ok(), "building syft failed:\n" + syft.output());
        String binary = syft.output().strip().lines().reduce((a, b) -> b).orElseThrow();
        System.out.printf("[image] syft ready in %d s: %s%n", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started), binary);

        Files.deleteIfExists(Path.of(ARCHIVE));
        Podman.Result saved = Podman.podman(300, "save", "--format", "oci-archive", "--output", ARCHIVE, IMAGE);
        assertTrue(saved.ok(), saved.output());
        Podman.Result scan = Podman.bash(600, "SYFT_CHECK_FOR_APP_UPDATE=false " + binary + " scan --quiet oci-archive:"
                + ARCHIVE + " --source-name dra-metadata-sidecar --source-version " + VERSION
                + " --output spdx-json=" + SBOM + " && rm " + ARCHIVE);
        assertTrue(scan.ok(), "syft failed:\n" + scan.output());

        JsonNode sbom = new ObjectMapper().readTree(Path.of(SBOM).toFile());
        assertTrue(sbom.path("spdxVersion").asText().startsWith("SPDX-2."), "SPDX JSON");
        List<String> packages = new ArrayList<>(); // name version <- where Syft found it
        sbom.path("packages").forEach(p -> packages.add(p.path("name").asText() + " " + p.path("versionInfo").asText()
                + " <- " + p.path("sourceInfo").asText()));
        System.out.printf("[image] SBOM %s: %d packages%n", SBOM, packages.size());
        assertListed(packages, "libc6 2\\.36.* <- .*dpkg.*", "the C library");
        assertListed(packages, "openjdk 25\\..* <- .*/opt/jre/release", "the Java runtime");
        assertListed(packages, "dra-metadata-sidecar " + Pattern.quote(VERSION) + " <- .*/deployments/app/dra-metadata-sidecar-"
                + Pattern.quote(VERSION) + "\\.jar", "the application's jar");
        try (var jars = Files.list(Path.of("target/quarkus-app/lib/main"))) {
            for (Path jar : jars.toList()) {
                assertListed(packages, ".* <- .*/deployments/lib/main/" + Pattern.quote(jar.getFileName().toString()),
                        "the application's library " + jar.getFileName());
            }
        }
    }

    private static void assertListed(List<String> packages, String regex, String what) {
        assertTrue(packages.stream().anyMatch(p -> p.matches(regex)), "the SBOM lists " + what + " (" + regex + "): "
                + String.join("\n", packages));
    }
}
