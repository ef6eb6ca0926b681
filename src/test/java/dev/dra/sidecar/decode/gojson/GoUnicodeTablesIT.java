package dev.dra.sidecar.decode.gojson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dra.sidecar.testsupport.GoOracle;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The sidecar's copy of Go's Unicode tables ({@link GoUnicode}) is what the Go toolchain pinned for the oracle
 * prints ({@code src/test/go/oracle/cmd/unicodetables}): a Go upgrade that changes them fails here, and the
 * resource is regenerated with {@code go run ./cmd/unicodetables > .../go-unicode-tables.txt}.
 */
class GoUnicodeTablesIT {

    @Test
    void theTablesAreGos() throws IOException, InterruptedException {
        Path go = GoOracle.goCommand().orElse(null);
        assumeTrue(go != null, "no Go toolchain (go on PATH or /usr/local/go/bin): the tables cannot be regenerated");
        Process process = new ProcessBuilder(go.toString(), "run", "-mod=readonly", "./cmd/unicodetables")
                .directory(GoOracle.MODULE.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertEquals(true, process.waitFor(5, TimeUnit.MINUTES), "go run did not finish");
        assertEquals(0, process.exitValue(), "go run ./cmd/unicodetables failed");
        try (InputStream kept = GoUnicode.class.getResourceAsStream(GoUnicode.TABLES)) {
            assertEquals(printed, new String(kept.readAllBytes(), StandardCharsets.US_ASCII));
        }
    }
}
