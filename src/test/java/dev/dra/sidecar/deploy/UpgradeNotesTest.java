package dev.dra.sidecar.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.decode.FailureCode;
import dev.dra.sidecar.decode.MetadataDecodeException;
import dev.dra.sidecar.decode.MetadataStreamDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * CHANGELOG.md's "What each release supports", for the release being built (the pom's version): the metadata
 * apiVersions it names are exactly those the decoder reads, and the API versions it says the manifests use are
 * those the manifests use. Every release in the table has its section.
 */
class UpgradeNotesTest {

    private static final Pattern QUOTED = Pattern.compile("`([^`]+)`");

    @Test
    void theReleaseBeingBuiltReadsExactlyTheApiVersionsItsNotesName() throws Exception {
        String[] row = row(releaseBeingBuilt());
        List<String> read = new ArrayList<>();
        Matcher versions = QUOTED.matcher(row[1].substring(0, row[1].indexOf('(')));
        while (versions.find()) {
            read.add(versions.group(1));
        }
        assertEquals(List.of("metadata.resource.k8s.io/v1beta1", "metadata.resource.k8s.io/v1alpha1"), read, row[1]);
        for (String apiVersion : read) {
            assertEquals(apiVersion, MetadataStreamDecoder.decode(stream(apiVersion), "notes").sourceVersion());
        }
        // The next version of the group, which a driver may write one day, is not read: the notes must say so then.
        MetadataDecodeException newer = assertThrows(MetadataDecodeException.class,
                () -> MetadataStreamDecoder.decode(stream("metadata.resource.k8s.io/v1"), "notes"));
        assertEquals(FailureCode.NO_COMPATIBLE_VERSION, newer.code());
    }

    @Test
    void theNotesNameEveryApiTheManifestsUse() throws Exception {
        String uses = row(releaseBeingBuilt())[3];
        Set<String> apis = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("deploy", "kubernetes"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
                Matcher apiVersion = Pattern.compile("(?m)^apiVersion: (\\S+/\\S+)$").matcher(Files.readString(file));
                while (apiVersion.find()) {
                    apis.add(apiVersion.group(1));
                }
            }
        }
        apis.removeIf(api -> api.startsWith("kustomize.config.k8s.io/") || api.equals("apps/v1"));
        assertEquals(Set.of("resource.k8s.io/v1", "admissionregistration.k8s.io/v1", "rbac.authorization.k8s.io/v1"), apis, "APIs beyond core and apps");
        for (String api : apis) {
            assertTrue(uses.contains("`" + api + "`"), api + " is named in: " + uses);
        }
        assertTrue(uses.contains("native sidecars"), uses);
    }

    @Test
    void everyReleaseOfTheTableHasItsSection() throws Exception {
        String changelog = changelog();
        for (String line : changelog.lines().filter(l -> l.matches("\\| [0-9]+\\.[0-9]+\\.[0-9]+ \\|.*")).toList()) {
            String release = line.split(" \\| ")[0].substring(2);
            assertTrue(Pattern.compile("(?m)^## \\[" + Pattern.quote(release) + "\\] - [0-9]{4}-[0-9]{2}-[0-9]{2}$")
                    .matcher(changelog).find(), "a section for " + release);
        }
    }

    /** The pom's version, without a -SNAPSHOT suffix. */
    private static String releaseBeingBuilt() throws Exception {
        Matcher version = Pattern.compile("<artifactId>dra-metadata-sidecar</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(Path.of("pom.xml")));
        assertTrue(version.find(), "the pom's version");
        return version.group(1).replace("-SNAPSHOT", "");
    }

    private static String[] row(String release) throws Exception {
        String line = changelog().lines().filter(l -> l.startsWith("| " + release + " |")).findFirst()
                .orElseThrow(() -> new AssertionError("CHANGELOG.md's table has no row for " + release));
        String[] cells = line.split(" \\| ");
        assertEquals(4, cells.length, line);
        return cells;
    }

    private static String changelog() throws Exception {
        return Files.readString(Path.of("CHANGELOG.md"));
    }

    private static byte[] stream(String apiVersion) {
        return ("{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"" + apiVersion + "\",\"requests\":[]}")
                .getBytes(StandardCharsets.UTF_8);
    }
}
