package dev.dra.sidecar.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * The conformance set through HTTP: the packaged sidecar serves the conformance tree
 * ({@code src/test/resources/fixtures/conformance/root}) and {@code src/test/resources/fixtures/tools/conformance-check}
 * checks every expectation of {@code expectations.json} (status, content type, body) against it.
 */
@QuarkusIntegrationTest
@TestProfile(ConformanceIT.ConformanceTree.class)
class ConformanceIT {

    static final Path FIXTURES = Path.of("src/test/resources/fixtures").toAbsolutePath();

    public static class ConformanceTree implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("dra.metadata.root", FIXTURES.resolve("conformance/root").toString());
        }
    }

    @Test
    void everyExpectationPasses() throws Exception {
        int port = ConfigProvider.getConfig().getValue("quarkus.http.test-port", Integer.class);
        Process check = new ProcessBuilder("python3", FIXTURES.resolve("tools/conformance-check").toString(),
                FIXTURES.resolve("conformance/expectations.json").toString(), "http://127.0.0.1:" + port)
                .redirectErrorStream(true).start();
        assertTrue(check.waitFor(120, TimeUnit.SECONDS), "conformance-check finished");
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        System.out.println(output);
        long expectations = countExpectations();
        assertEquals(0, check.exitValue(), output);
        assertTrue(output.strip().endsWith(expectations + " passed, 0 failed"), output);
    }

    private static long countExpectations() throws Exception {
        String json = Files.readString(FIXTURES.resolve("conformance/expectations.json"));
        return json.lines().filter(l -> l.strip().startsWith("\"id\":")).count();
    }
}
