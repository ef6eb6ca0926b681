package dev.dra.sidecar.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A Go command of the tests built by its {@code src/test/<tool>/build.sh} into the shared cache (reused when
 * there), whose last line of output is the binary's path.
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
        Path log = LOGS.resolve(tool + "-build.log");
        ScriptedComponent.build(whoNeedsIt, tool, Path.of("src/test", tool, "build.sh"), log, BUILD_TIMEOUT);
        try {
            List<String> lines = Files.readAllLines(log);
            return Path.of(lines.get(lines.size() - 1).strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
