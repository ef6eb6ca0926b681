package dev.dra.sidecar.api;

import dev.dra.sidecar.TestTrees;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A metadata root for API tests: the shared conformance tree plus the cases the API adds (two devices with one
 * name, list attributes, files the tests rewrite). Made fresh in a temporary directory for each application start.
 */
public class ApiTestTree implements QuarkusTestProfile {

    static final Path ROOT = create();

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("dra.metadata.root", ROOT.toString());
    }

    static Path file(String relative) {
        return ROOT.resolve(relative);
    }

    static void write(String relative, String content) {
        try {
            Path file = ROOT.resolve(relative);
            Files.createDirectories(file.getParent());
            Files.writeString(file, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One v1beta1 object with one device, as a driver writes it. */
    static String object(String claim, String request, long generation, String driver, String pool, String device,
            String attributes) {
        return TestTrees.object(claim, request, generation, driver, pool, device, attributes);
    }

    private static Path create() {
        try {
            Path root = TestTrees.copyOf("src/test/resources/fixtures/conformance/root", "dra-api-test");
            // Two drivers each name their device gpu-0: an attribute lookup must be told which one.
            writeTo(root, "resourceclaims/twins/gpu/a.example.com-metadata.json",
                    object("twins", "gpu", 1, "a.example.com", "pool-a", "gpu-0", "\"model\":{\"string\":\"A\"}"));
            writeTo(root, "resourceclaims/twins/gpu/b.example.com-metadata.json",
                    object("twins", "gpu", 1, "b.example.com", "pool-b", "gpu-0", "\"model\":{\"string\":\"B\"}"));
            writeTo(root, "resourceclaims/lists/gpu/gpu.example.com-metadata.json",
                    object("lists", "gpu", 1, "gpu.example.com", "p", "gpu-0",
                            "\"cores\":{\"ints\":[1,2,9007199254740993]},\"tags\":{\"strings\":[\"a\",\"b\"]},"
                            + "\"resource.kubernetes.io/pciBusID\":{\"string\":\"0000:00:01.0\"}"));
            writeTo(root, "resourceclaims/changing/gpu/gpu.example.com-metadata.json",
                    object("changing", "gpu", 1, "gpu.example.com", "p", "gpu-0", "\"model\":{\"string\":\"X\"}"));
            writeTo(root, "resourceclaims/breaking/gpu/gpu.example.com-metadata.json",
                    object("breaking", "gpu", 1, "gpu.example.com", "p", "gpu-0", "\"model\":{\"string\":\"X\"}"));
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeTo(Path root, String relative, String content) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }
}
