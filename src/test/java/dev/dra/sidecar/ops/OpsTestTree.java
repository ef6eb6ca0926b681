package dev.dra.sidecar.ops;

import dev.dra.sidecar.TestTrees;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

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

    /** A fresh copy of the sample tree in a temporary directory. */
    static Path copyOfSample() {
        return TestTrees.copyOf("deploy/sample/dra-device-attributes", "dra-ops-test");
    }

    /** One v1beta1 object with one device of pool {@code pool-0}, generation 1. */
    static String object(String claim, String request, String driver, String device, String attributes) {
        return TestTrees.object(claim, request, 1, driver, "pool-0", device, attributes);
    }
}
