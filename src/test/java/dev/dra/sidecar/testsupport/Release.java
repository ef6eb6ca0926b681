package dev.dra.sidecar.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The release script ({@code release/release.sh}, the one the release workflow runs) run for linux/amd64 against
 * the tests' registry: the image built, pushed by digest, signed and given its SBOM attestation with a key made for
 * the run, and the chart stamped with that image and pushed. cosign, helm and Syft are the tests' builds.
 */
public final class Release {

    private static final Path SCRIPT = Path.of("release/release.sh");
    private static final Path PODMAN = Path.of("src/test/image/podman.sh");

    /** What a release published: release.env's values, and the run's key pair and output folder. */
    public record Published(String version, String image, String chart, Path out, Path publicKey, Path cosign,
            Map<String, String> env) {
        /** The image's repository, without its digest. */
        public String repository() {
            return image.substring(0, image.indexOf('@'));
        }

        public String digest() {
            return image.substring(image.indexOf('@') + 1);
        }
    }

    /** What a command printed (stdout and stderr together) and how it ended. */
    public record Result(int exit, String output) {
        public boolean ok() {
            return exit == 0;
        }
    }

    private Release() {}

    /**
     * Runs the release script into {@code out}: images into {@code <registry>/dra-metadata-sidecar}, the chart into
     * {@code <registry>/charts}. Needs the base images (the caller ensures them) and target/quarkus-app.
     *
     * @throws Unavailable when there is no Go toolchain for cosign, helm or Syft
     */
    public static Published run(String whoNeedsIt, TestRegistry registry, Path out) throws Exception {
        return run(whoNeedsIt, registry, out, true);
    }

    /**
     * As {@link #run(String, TestRegistry, Path)}; unless {@code sign}, with {@code RELEASE_SIGN=false}: no SBOM, no
     * signature, no key (nor cosign and Syft built), for a test of the pull path alone.
     */
    public static Published run(String whoNeedsIt, TestRegistry registry, Path out, boolean sign) throws Exception {
        Path dir = Files.createDirectories(out.toAbsolutePath());
        Path helm = GoTools.binary(whoNeedsIt, "helm");
        Map<String, String> env = new HashMap<>(helmHome(dir));
        env.put("REGISTRY_AUTH_FILE", registry.authFile.toString());
        env.put("REGISTRY_CA", registry.ca.toString());
        env.put("PODMAN", PODMAN.toAbsolutePath().toString());
        env.put("HELM", helm.toString());
        env.put("RELEASE_SIGN", Boolean.toString(sign));
        Path keys = dir.resolve("keys");
        Path cosign = null;
        if (sign) {
            cosign = GoTools.binary(whoNeedsIt, "cosign");
            Path syft = GoTools.binary(whoNeedsIt, "syft");
            Files.createDirectories(keys);
            Files.deleteIfExists(keys.resolve("cosign.key"));
            Files.deleteIfExists(keys.resolve("cosign.pub"));
            Result generated = run(keys, Map.of("COSIGN_PASSWORD", "release-test"), 120,
                    cosign.toString(), "generate-key-pair");
            assertTrue(generated.ok(), "cosign generate-key-pair failed:\n" + generated.output());
            env.put("COSIGN_KEY", keys.resolve("cosign.key").toString());
            env.put("COSIGN_PASSWORD", "release-test");
            env.put("COSIGN_TLOG", "false");
            env.put("COSIGN", cosign.toString());
            env.put("SYFT", syft.toString());
        }
        long started = System.nanoTime();
        Result release = run(Path.of("."), env, 1800, "bash", SCRIPT.toString(), registry.host + "/dra-metadata-sidecar",
                registry.host + "/charts", dir.toString());
        assertEquals(0, release.exit(), "release.sh failed:\n" + release.output());
        System.err.printf("release.sh published in %d s%n", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
        Map<String, String> published = new LinkedHashMap<>();
        Files.readAllLines(dir.resolve("release.env")).forEach(line -> {
            int eq = line.indexOf('=');
            published.put(line.substring(0, eq), line.substring(eq + 1));
        });
        return new Published(published.get("version"), published.get("image"), published.get("chart"), dir,
                keys.resolve("cosign.pub"), cosign, published);
    }

    /** Helm's configuration, cache and data directories under {@code dir}: nothing of the user's helm setup. */
    public static Map<String, String> helmHome(Path dir) {
        Path home = dir.resolve("helm-home");
        return Map.of("HELM_CONFIG_HOME", home.resolve("config").toString(),
                "HELM_CACHE_HOME", home.resolve("cache").toString(),
                "HELM_DATA_HOME", home.resolve("data").toString(),
                "KUBECONFIG", "/dev/null");
    }

    /** Runs {@code command} in {@code dir} with {@code env} added; fails the test when it outlives the timeout. */
    public static Result run(Path dir, Map<String, String> env, long timeoutSeconds, String... command)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(List.of(command))).directory(dir.toFile())
                .redirectErrorStream(true);
        builder.environment().putAll(env);
        Path output = Files.createTempFile("release", ".out");
        try {
            Process process = builder.redirectOutput(output.toFile()).start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroy);
                process.destroy();
                throw new AssertionError(String.join(" ", command) + " took more than " + timeoutSeconds + " s:\n"
                        + Files.readString(output, StandardCharsets.UTF_8));
            }
            return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
