package dev.dra.sidecar.api;

import dev.dra.sidecar.testsupport.DeviceMetadataJson;
import dev.dra.sidecar.testsupport.FileTrees;
import dev.dra.sidecar.testsupport.MetadataFiles;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A metadata root for API tests: the shared conformance tree plus the cases the API adds (two devices with one
 * name, list attributes, files the tests rewrite). Made fresh in a temporary directory for each application start.
 */
public class ApiTestTree implements QuarkusTestProfile {

    static final Path ROOT = create();

    private final Map<String, String> settings;

    public ApiTestTree() {
        this(Map.of());
    }

    /** The tree, with {@code settings} besides the root: a profile of its own for the tests of one setting. */
    protected ApiTestTree(Map<String, String> settings) {
        this.settings = settings;
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> overrides = new HashMap<>(settings);
        overrides.put("dra.metadata.root", ROOT.toString());
        return overrides;
    }

    static Path file(String relative) {
        return ROOT.resolve(relative);
    }

    /** Writes {@code content} to the file at {@code relative} under the root, in place (truncate, then write). */
    static void write(String relative, String content) {
        MetadataFiles.create(file(relative), content);
    }

    private static Path create() {
        Path root = FileTrees.copyToTemporaryDirectory("src/test/resources/fixtures/conformance/root", "dra-api-test");
        // Two drivers each name their device gpu-0: an attribute lookup must be told which one.
        MetadataFiles.create(root.resolve("resourceclaims/twins/gpu/a.example.com-metadata.json"),
                DeviceMetadataJson.forClaim("twins").driver("a.example.com").pool("pool-a")
                        .attributes("\"model\":{\"string\":\"A\"}").json());
        MetadataFiles.create(root.resolve("resourceclaims/twins/gpu/b.example.com-metadata.json"),
                DeviceMetadataJson.forClaim("twins").driver("b.example.com").pool("pool-b")
                        .attributes("\"model\":{\"string\":\"B\"}").json());
        MetadataFiles.create(root.resolve("resourceclaims/lists/gpu/gpu.example.com-metadata.json"),
                DeviceMetadataJson.forClaim("lists")
                        .attributes("\"cores\":{\"ints\":[1,2,9007199254740993]},\"tags\":{\"strings\":[\"a\",\"b\"]},"
                                + "\"resource.kubernetes.io/pciBusID\":{\"string\":\"0000:00:01.0\"}").json());
        MetadataFiles.create(root.resolve("resourceclaims/changing/gpu/gpu.example.com-metadata.json"),
                DeviceMetadataJson.forClaim("changing").attributes("\"model\":{\"string\":\"X\"}").json());
        MetadataFiles.create(root.resolve("resourceclaims/breaking/gpu/gpu.example.com-metadata.json"),
                DeviceMetadataJson.forClaim("breaking").attributes("\"model\":{\"string\":\"X\"}").json());
        return root;
    }
}
