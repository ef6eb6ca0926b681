package dev.dra.sidecar.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.dra.sidecar.image.PodLikeContainer;
import dev.dra.sidecar.image.Podman;
import dev.dra.sidecar.testsupport.GoTools;
import dev.dra.sidecar.testsupport.InjectionParameters;
import dev.dra.sidecar.testsupport.Release;
import dev.dra.sidecar.testsupport.TestRegistry;
import dev.dra.sidecar.testsupport.Unavailable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The release script (release/release.sh, what the release workflow runs) against the tests' private registry
 * (TLS, basic authentication), for linux/amd64: the published image verifies with the release key by cosign, its
 * SBOM attestation too; an unsigned image and a tag moved to another image do not; the published chart, with no
 * values, names the published image by digest; the release notes are the CHANGELOG's section of the version.
 */
class ReleaseIT {

    private static final String WHO = "the release test";
    private static final Path STATE = Path.of("target/release-it");
    private static TestRegistry registry;
    private static Release.Published release;

    @BeforeAll
    static void publish() throws Exception {
        String why = Podman.whyPodmanCannotRun();
        Assumptions.assumeTrue(why == null, () -> "release test skipped: " + why);
        try {
            registry = TestRegistry.start(WHO, STATE.resolve("registry"));
            PodLikeContainer.ensureBaseImages();
            release = Release.run(WHO, registry, STATE.resolve("out"));
        } catch (Unavailable e) {
            Assumptions.abort(e.getMessage());
        }
    }

    @AfterAll
    static void stop() {
        if (registry != null) {
            registry.close();
        }
    }

    /** cosign with the registry's credentials and CA, nothing else trusted, nothing uploaded. */
    private static Release.Result cosign(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(release.cosign().toString()));
        command.addAll(List.of(args));
        return Release.run(Path.of("."), Map.of("DOCKER_CONFIG", registry.dockerConfig.toString(),
                "SSL_CERT_FILE", registry.ca.toString()), 120, command.toArray(String[]::new));
    }

    /** The verification an admission policy makes: the release's public key, no transparency log. */
    private static Release.Result verify(String reference) throws Exception {
        return cosign("verify", "--key", release.publicKey().toString(), "--insecure-ignore-tlog=true", reference);
    }

    /** A small image of its own (one file that names it), pushed to {@code reference}. */
    private static void pushOtherImage(String name, String reference) throws Exception {
        Path context = Files.createDirectories(STATE.resolve("other-" + name).toAbsolutePath());
        Files.writeString(context.resolve("Containerfile"), "FROM scratch\nCOPY name /name\n");
        Files.writeString(context.resolve("name"), name + "\n");
        String local = "localhost/dra-release-it/" + name + ":1";
        Podman.Result built = Podman.podman(300, "build", "-q", "-t", local, context.toString());
        assertTrue(built.ok(), built.output());
        try {
            Podman.Result pushed = Podman.podman(300, "push", "--authfile", registry.authFile.toString(), "--cert-dir",
                    registry.certDir.toString(), local, "docker://" + reference);
            assertTrue(pushed.ok(), pushed.output());
        } finally {
            Podman.podman(60, "rmi", local);
        }
    }

    @Test
    void thePublishedImageVerifiesWithTheReleaseKey() throws Exception {
        assertTrue(release.image().matches(registry.host + "/dra-metadata-sidecar@sha256:[0-9a-f]{64}"), release.image());
        Release.Result verified = verify(release.image());
        assertEquals(0, verified.exit(), verified.output());
        assertTrue(verified.output().contains("The signatures were verified against the specified public key"),
                verified.output());
    }

    @Test
    void itsSbomAttestationVerifiesAndHoldsTheSbomThatWasPublished() throws Exception {
        Release.Result verified = cosign("verify-attestation", "--key", release.publicKey().toString(),
                "--insecure-ignore-tlog=true", "--type", "spdxjson", release.image());
        assertEquals(0, verified.exit(), verified.output());
        JsonNode sbom = new ObjectMapper().readTree(release.out().resolve("sbom.spdx.json").toFile());
        assertTrue(sbom.path("packages").size() > 10, "Syft found the image's packages: " + sbom.path("packages").size());
        String envelope = verified.output().lines().filter(l -> l.startsWith("{")).findFirst().orElseThrow();
        JsonNode statement = new ObjectMapper().readTree(Base64.getDecoder().decode(
                new ObjectMapper().readTree(envelope).path("payload").asText()));
        assertEquals("https://spdx.dev/Document", statement.path("predicateType").asText(), statement.toString());
        assertEquals(release.digest(), "sha256:" + statement.path("subject").get(0).path("digest").path("sha256").asText());
        assertEquals(sbom, statement.path("predicate"), "the attested predicate is the SBOM the release made");
    }

    @Test
    void anUnsignedImageDoesNotVerify() throws Exception {
        String unsigned = registry.host + "/dra-metadata-sidecar-unsigned:1";
        pushOtherImage("unsigned", unsigned);
        Release.Result verified = verify(unsigned);
        assertNotEquals(0, verified.exit(), verified.output());
        assertTrue(verified.output().contains("no signatures found"), verified.output());
    }

    @Test
    void aTagMovedToAnotherImageNoLongerVerifiesButTheDigestStillDoes() throws Exception {
        String tag = release.repository() + ":" + release.version() + "-moved";
        Release.Result copied = cosign("copy", release.image(), tag);
        assertEquals(0, copied.exit(), copied.output());
        assertEquals(0, verify(tag).exit(), "the tag verifies while it names the signed image");
        pushOtherImage("retagged", tag);
        Release.Result moved = verify(tag);
        assertNotEquals(0, moved.exit(), moved.output());
        assertTrue(moved.output().contains("no signatures found"), moved.output());
        assertEquals(0, verify(release.image()).exit(), "the signed digest still verifies");
    }

    @Test
    void thePublishedChartInjectsThePublishedImageWithItsDefaults() throws Exception {
        Map<String, String> env = Release.helmHome(STATE.toAbsolutePath().resolve("helm"));
        Path helm = GoTools.binary(WHO, "helm");
        Release.Result rendered = Release.run(Path.of("."), env, 120, helm.toString(), "template", "dra-metadata-sidecar",
                release.chart(), "--version", release.version(), "--namespace", "dra-metadata-sidecar",
                "--kube-version=1.37.2", "--registry-config", registry.authFile.toString(), "--ca-file",
                registry.ca.toString());
        assertEquals(0, rendered.exit(), rendered.output());
        String policy = List.of(rendered.output().split("(?m)^---$")).stream()
                .filter(d -> d.contains("kind: MutatingAdmissionPolicy\n")).findFirst().orElseThrow();
        assertEquals(release.image(), InjectionParameters.of(new YAMLMapper().readTree(policy)).get("image"),
                "with no values, the released chart injects the released image by digest");
    }

    @Test
    void theReleaseNotesAreTheChangelogSectionOfTheVersion() throws Exception {
        String changelog = Files.readString(Path.of("CHANGELOG.md"), StandardCharsets.UTF_8);
        int start = changelog.indexOf("## [" + release.version() + "]");
        assertTrue(start >= 0, "CHANGELOG.md has the version's section");
        String rest = changelog.substring(changelog.indexOf('\n', start) + 1);
        int end = rest.indexOf("\n## [");
        String section = end < 0 ? rest : rest.substring(0, end + 1);
        assertEquals(section, Files.readString(release.out().resolve("release-notes.md"), StandardCharsets.UTF_8));
        assertTrue(section.strip().length() > 100, section);
    }
}
