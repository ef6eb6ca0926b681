package dev.dra.sidecar.ops;

import dev.dra.sidecar.testsupport.FileTrees;
import dev.dra.sidecar.testsupport.MetadataFiles;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A metadata root for operations tests: a copy of the sample tree ({@code deploy/sample/dra-device-attributes})
 * in a temporary directory, with one expected claim ({@code claims/late-claim/gpu}, also expected as the whole
 * claim {@code claims/late-claim}) that is not there at start, as when the driver has not written its file yet.
 */
public class OpsTestTree implements QuarkusTestProfile {

    static final Path ROOT = copyOfSample();
    /** A metadata root that does not exist: a container into which nothing is mounted. */
    static final Path NOT_MOUNTED = copyOfSample().resolve("not-mounted");

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("dra.metadata.root", ROOT.toString(),
                "dra.metadata.expected-claims", "claims/late-claim/gpu,claims/late-claim,template-claims/my-gpu/gpu,template-claims/my-gpu");
    }

    /** Replaces the file at {@code relative} under the root by a rename, so the sidecar never sees it half-written. */
    static void write(String relative, String content) {
        MetadataFiles.replaceByRename(ROOT.resolve(relative), content);
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
        return FileTrees.copyToTemporaryDirectory("deploy/sample/dra-device-attributes", "dra-ops-test");
    }
}
