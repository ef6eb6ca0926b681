package dev.dra.sidecar.ops;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A metadata root for operations tests: a copy of the sample tree ({@code deploy/sample/dra-device-attributes})
 * in a temporary directory, with one expected claim ({@code claims/late-claim/gpu}) that is not there at start,
 * as when the driver has not written its file yet.
 */
public class OpsTestTree implements QuarkusTestProfile {

    static final Path ROOT = copyOfSample();

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("dra.metadata.root", ROOT.toString(),
                "dra.metadata.expected-claims", "claims/late-claim/gpu,template-claims/my-gpu/gpu");
    }

    static void write(String relative, String content) {
        try {
            Path file = ROOT.resolve(relative);
            Files.createDirectories(file.getParent());
            // Write then rename, as a driver does: the sidecar never sees a half-written file here.
            Path temp = Files.createTempFile(file.getParent(), ".tmp", "");
            Files.writeString(temp, content, StandardCharsets.UTF_8);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void delete(String relative) {
        try {
            Files.deleteIfExists(ROOT.resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One v1beta1 object with one device, as a driver writes it. */
    static String object(String claim, String request, String driver, String device, String attributes) {
        return """
                {"kind":"DeviceMetadata","apiVersion":"metadata.resource.k8s.io/v1beta1",\
                "metadata":{"name":"%s","namespace":"default","uid":"uid-%s","generation":1},\
                "requests":[{"name":"%s","devices":[{"driver":"%s","pool":"pool-0","name":"%s","attributes":{%s}}]}]}
                """.formatted(claim, claim, request, driver, device, attributes);
    }

    static Path copyOfSample() {
        try {
            Path root = Files.createTempDirectory("dra-ops-test");
            Path sample = Path.of("deploy/sample/dra-device-attributes");
            try (Stream<Path> tree = Files.walk(sample)) {
                for (Path source : (Iterable<Path>) tree::iterator) {
                    Path target = root.resolve(sample.relativize(source).toString());
                    if (Files.isDirectory(source)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
