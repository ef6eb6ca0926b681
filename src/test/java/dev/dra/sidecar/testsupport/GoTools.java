package dev.dra.sidecar.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A Go command of the tests built by its {@code src/test/<tool>/build.sh} into the shared cache (reused when
 * there), whose last line of output is the binary's path; or any path a script of the same contract prints.
 */
public final class GoTools {

    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(60);
    private static final Path LOGS = Path.of("target/go-tools");

    private GoTools() {}

    /**
     * The path of {@code tool}'s binary, built first where the cache lacks it.
     *
     * @throws Unavailable when there is no Go toolchain: "{@code whoNeedsIt} need Go to build {@code tool}..."
     */
    public static Path binary(String whoNeedsIt, String tool) throws Unavailable {
        return printedPath(whoNeedsIt, tool, Path.of("src/test", tool, "build.sh"), LOGS.resolve(tool + "-build.log"));
    }

    /**
     * The path that {@code script} (a script with build.sh's contract: exit 3 without a Go toolchain), given
     * {@code args}, prints last, with what it printed in {@code log}.
     *
     * @throws Unavailable when there is no Go toolchain: "{@code whoNeedsIt} need Go to build {@code what}..."
     */
    public static Path printedPath(String whoNeedsIt, String what, Path script, Path log, String... args)
            throws Unavailable {
        ScriptedComponent.build(whoNeedsIt, what, script, log, BUILD_TIMEOUT, args);
        try {
            List<String> lines = Files.readAllLines(log);
            return Path.of(lines.get(lines.size() - 1).strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
