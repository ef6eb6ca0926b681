package dev.dra.sidecar.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The helm command at the version {@code src/test/helm/go.sum} pins, built once into a cache by
 * {@code src/test/helm/build.sh}, run with its own empty configuration, cache and data directories (nothing of
 * the user's helm setup, no repositories) and, for the commands that talk to a cluster, a kubeconfig file.
 */
public final class Helm {

    public static final Path CHART = Path.of("deploy", "helm", "dra-metadata-sidecar");
    private static final Path BUILD = Path.of("src", "test", "helm", "build.sh");
    private static final Path STATE = Path.of("target", "helm");
    /** build.sh's exit status when there is no Go toolchain. */
    private static final int NO_GO = 3;

    /** What helm printed and how it ended. */
    public record Result(int exitCode, String stdout, String stderr) {}

    private static Path binary;
    private static String unavailable;

    private final Path kubeconfig;

    private Helm(Path kubeconfig) {
        this.kubeconfig = kubeconfig;
    }

    /** Helm without a cluster (lint, template); skips the test (an assumption) when helm cannot be built here. */
    public static Helm offline() {
        return new Helm(null);
    }

    /** Helm talking to the cluster of {@code kubeconfig} (the file's text). */
    public static Helm forCluster(String kubeconfig) {
        try {
            Files.createDirectories(STATE);
            Path file = Files.createTempFile(STATE.toAbsolutePath(), "kubeconfig", "");
            Files.writeString(file, kubeconfig, StandardCharsets.UTF_8);
            return new Helm(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code helm args...}. */
    public Result run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(binary().toString()));
        command.addAll(List.of(args));
        Path home = Files.createDirectories(STATE.resolve("home").toAbsolutePath());
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("HELM_CONFIG_HOME", home.resolve("config").toString());
        builder.environment().put("HELM_CACHE_HOME", home.resolve("cache").toString());
        builder.environment().put("HELM_DATA_HOME", home.resolve("data").toString());
        builder.environment().remove("HELM_NAMESPACE");
        builder.environment().put("KUBECONFIG", kubeconfig == null ? "/dev/null" : kubeconfig.toString());
        Path out = Files.createTempFile("helm", ".out");
        Path err = Files.createTempFile("helm", ".err");
        try {
            Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            assertTrue(process.waitFor(180, TimeUnit.SECONDS), "helm " + String.join(" ", args) + " timed out");
            return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Runs {@code helm args...} and returns its standard output; fails the test when helm fails. */
    public String succeed(String... args) throws Exception {
        Result result = run(args);
        assertEquals(0, result.exitCode(), "helm " + String.join(" ", args) + " failed:\n" + result.stderr()
                + result.stdout());
        return result.stdout();
    }

    /** Builds helm on first use (build.sh reuses its cache); skips the test when there is no Go toolchain. */
    private static synchronized Path binary() throws Exception {
        if (binary == null && unavailable == null) {
            Files.createDirectories(STATE);
            Path log = STATE.resolve("build.log");
            Process build = new ProcessBuilder("bash", BUILD.toString()).redirectError(log.toFile()).start();
            String printed = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertTrue(build.waitFor(30, TimeUnit.MINUTES), "building helm timed out; log " + log);
            if (build.exitValue() == NO_GO) {
                unavailable = "the Helm chart tests need Go to build helm: " + Files.readString(log).strip();
            } else {
                assertEquals(0, build.exitValue(), "building helm failed; log " + log + ":\n" + Files.readString(log));
                binary = Path.of(printed);
            }
        }
        if (unavailable != null) {
            System.err.println("SKIPPED: " + unavailable);
        }
        assumeTrue(unavailable == null, unavailable);
        return binary;
    }
}
