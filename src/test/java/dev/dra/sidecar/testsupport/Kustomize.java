package dev.dra.sidecar.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** {@code kubectl kustomize}: the rendering a user gets from {@code kubectl apply -k}. */
public final class Kustomize {

    /** What {@code kubectl kustomize} printed and how it ended. */
    public record Result(int exitCode, String stdout, String stderr) {}

    private Kustomize() {}

    /** kubectl on PATH (or in /usr/bin, /usr/local/bin), or null. */
    public static Path kubectl() {
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/bin:/usr/local/bin").split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "kubectl");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** Runs {@code kubectl kustomize dir}; skips the test (an assumption) when kubectl is not installed. */
    public static Result run(Path dir) throws Exception {
        Path kubectl = kubectl();
        assumeTrue(kubectl != null, "kubectl is not installed: the kustomize rendering checks are skipped");
        Path out = Files.createTempFile("kustomize", ".out");
        Path err = Files.createTempFile("kustomize", ".err");
        try {
            Process process = new ProcessBuilder(kubectl.toString(), "kustomize", dir.toString())
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "kubectl kustomize timed out");
            return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** The YAML {@code dir} renders to; fails the test when kustomize fails. */
    public static String render(Path dir) throws Exception {
        Result result = run(dir);
        assertEquals(0, result.exitCode(), "kubectl kustomize " + dir + " failed: " + result.stderr());
        return result.stdout();
    }
}
