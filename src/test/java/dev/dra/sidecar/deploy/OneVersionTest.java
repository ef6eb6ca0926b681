package dev.dra.sidecar.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.dra.sidecar.testsupport.ProjectVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One version everywhere: pom.xml's {@code <version>} is written once, as semantic versioning, and every other place
 * that names the release derives from it or is checked against it. (The start log: CleanStartIT; the image's tag and
 * OCI labels: SidecarImageIT.)
 */
class OneVersionTest {

    private static final String VERSION = ProjectVersion.get();
    private static final Pattern IMAGE = Pattern.compile("dra-metadata-sidecar:(\\S+)");

    @Test
    void thePomVersionIsSemanticVersioning() {
        assertTrue(VERSION.matches(ProjectVersion.SEMVER), "MAJOR.MINOR.PATCH: " + VERSION);
    }

    @Test
    void theOpenApiDocumentTakesTheApplicationsVersion() throws IOException {
        assertTrue(Files.readString(Path.of("src/main/resources/application.properties"))
                .contains("\nquarkus.smallrye-openapi.info-version=${quarkus.application.version}\n"), "derived, not repeated");
        assertEquals(VERSION, new YAMLMapper().readTree(Path.of("src/main/openapi/openapi.yaml").toFile())
                .at("/info/version").asText(), "checked-in openapi.yaml");
        assertEquals(VERSION, new ObjectMapper().readTree(Path.of("src/main/openapi/openapi.json").toFile())
                .at("/info/version").asText(), "checked-in openapi.json");
    }

    /** Every image the manifests name, and every Kustomize newTag, is the pom's release. */
    @Test
    void theManifestsRunThisRelease() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("deploy/kubernetes"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
                for (String line : Files.readAllLines(file)) {
                    String code = line.replaceFirst("#.*", "");
                    Matcher image = IMAGE.matcher(code);
                    if (code.contains("image:") && image.find()) {
                        found.add(file + ": " + image.group(1));
                    } else if (code.strip().startsWith("newTag:")) {
                        found.add(file + ": " + code.strip().substring("newTag:".length()).strip());
                    }
                }
            }
        }
        assertFalse(found.isEmpty());
        assertEquals(List.of(), found.stream().filter(f -> !f.endsWith(": " + VERSION)).toList(),
                "images and tags that are not " + VERSION);
    }

    /** The README's image build takes the tag and the version label from the pom, instead of repeating them. */
    @Test
    void theReadmeBuildsTheImageOfThePomVersion() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        assertTrue(readme.contains("version=$(sed -n 's/^version=//p' target/maven-archiver/pom.properties)"), "derived");
        Matcher image = IMAGE.matcher(readme);
        while (image.find()) {
            assertTrue(image.group(1).matches("(\\$version|<version>|" + Pattern.quote(VERSION) + ")([^\\w.-].*)?"),
                    "README names another version: " + image.group());
        }
    }

    /** The README's and docs/release.md's {@code helm install oci://... --version} install this release. */
    @Test
    void theChartInstallLinesNameThisRelease() throws IOException {
        Pattern install = Pattern.compile("oci://\\S+/dra-metadata-sidecar --version (\\S+)");
        for (Path doc : List.of(Path.of("README.md"), Path.of("docs/release.md"))) {
            Matcher line = install.matcher(Files.readString(doc));
            assertTrue(line.find(), doc + " shows the install from a registry");
            do {
                assertEquals(VERSION, line.group(1), doc + ": " + line.group());
            } while (line.find());
        }
    }
}
