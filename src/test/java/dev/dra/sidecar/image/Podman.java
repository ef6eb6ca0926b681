package dev.dra.sidecar.image;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The scripts in src/test/image/ (podman as these machines need it), run from the repository root. */
public final class Podman {

    static final Path SCRIPTS = Path.of("src/test/image");

    public record Result(int exit, String output) {
        public boolean ok() {
            return exit == 0;
        }
    }

    private Podman() {
    }

    /** {@code podman <args>} through src/test/image/podman.sh. */
    public static Result podman(long timeoutSeconds, String... args) {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPTS.resolve("podman.sh").toString()));
        command.addAll(List.of(args));
        return run(timeoutSeconds, command);
    }

    /** One of the scripts in src/test/image/ with its arguments. */
    public static Result script(long timeoutSeconds, String script, List<String> args) {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPTS.resolve(script).toString()));
        command.addAll(args);
        return run(timeoutSeconds, command);
    }

    /**
     * A bash script (such as the README's image build) run from the repository root, with {@code podman} in it being
     * src/test/image/podman.sh.
     */
    public static Result bash(long timeoutSeconds, String script) {
        return run(timeoutSeconds, List.of("bash", "-c", "set -euo pipefail\npodman() { bash " + SCRIPTS.resolve("podman.sh")
                + " \"$@\"; }\n" + script));
    }

    /** Why podman cannot run containers here, or {@code null} when it can. */
    public static String whyPodmanCannotRun() {
        Result version;
        try {
            version = run(30, List.of("podman", "--version"));
        } catch (IllegalStateException e) {
            return "podman is not installed (" + e.getMessage() + ")";
        }
        if (!version.ok()) {
            return "podman --version failed: " + version.output();
        }
        Result info = podman(60, "info", "--format", "{{.Host.OCIRuntime.Name}}");
        return info.ok() ? null : "podman cannot run here: " + info.output().strip();
    }

    private static Result run(long timeoutSeconds, List<String> command) {
        try {
            Path log = Files.createTempFile("podman", ".log");
            try {
                Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                        .start();
                if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                    return new Result(-1, "timed out after " + timeoutSeconds + " s: " + command + "\n"
                            + Files.readString(log, StandardCharsets.UTF_8));
                }
                return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(log);
            }
        } catch (IOException e) {
            throw new IllegalStateException(command.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
