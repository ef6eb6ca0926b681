package dev.dra.sidecar.store;

import static dev.dra.sidecar.store.StoreOnFiles.BOUND;
import static dev.dra.sidecar.snapshot.ClaimKind.CLAIM;
import static dev.dra.sidecar.store.StoreFiles.metadata;
import static dev.dra.sidecar.testsupport.MetadataFiles.create;
import static dev.dra.sidecar.testsupport.MetadataFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.MetadataFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where file notifications cannot be had, the store says why and polls at the short interval; every change still
 * arrives. Each case is made for real in a child JVM ({@link BindMountProbe}): a native library that does not load,
 * and a user whose inotify watch limit is reached (in a user namespace of its own, where the limit can be lowered
 * without touching the machine's).
 */
class WatchFallbackTest {

    @TempDir
    Path temp;

    private Path root;

    /** {@code c/r/d} (the file the probe reports on) and {@code files - 1} more drivers' files beside it. */
    private Path tree(int files) {
        root = temp.resolve("root");
        for (int i = 1; i < files; i++) {
            create(file(root, CLAIM, "c", "r", "other" + i), metadata(1));
        }
        Path f = file(root, CLAIM, "c", "r", "d");
        create(f, metadata(1));
        return f;
    }

    @Test
    void aNativeLibraryThatDoesNotLoadMeansPollingWithTheReason() throws Exception {
        Path f = tree(1);
        Path empty = Files.createDirectories(temp.resolve("no-native-library-here"));
        try (ProbeProcess probe = ProbeProcess.start(List.of(), "",
                List.of("-Djna.boot.library.path=" + empty, "-Djna.nounpack=true"), temp.resolve("probe.stderr"),
                root.toString(), f.toString(), "true")) {
            probe.next(BOUND); // ro: a plain file here
            String mode = probe.next(BOUND);
            assertTrue(mode.startsWith("mode polling: ") && mode.contains("libjnidispatch") && mode.contains("did not load"),
                    mode);
            assertEquals("gen 1 ok", probe.next(BOUND));
            MetadataFiles.rewriteInPlace(f, metadata(2));
            probe.awaitGeneration(2, BOUND);
        }
    }

    @Test
    void exhaustedInotifyWatchesMeanPollingWithTheReason() throws Exception {
        Assumptions.assumeTrue(ProbeProcess.onPath("unshare") != null, "unshare (util-linux) is not installed");
        Process userNamespace = new ProcessBuilder("unshare", "-U", "-r", "sh", "-c",
                "echo 6 > /proc/sys/user/max_inotify_watches").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        Assumptions.assumeTrue(userNamespace.waitFor(10, TimeUnit.SECONDS) && userNamespace.exitValue() == 0,
                "cannot make a user namespace with its own inotify watch limit here");
        Path f = tree(3);
        // The probe's own directory watch, the store's four (root, resourceclaims, c, r) and one file: the second
        // file's watch is refused.
        try (ProbeProcess probe = ProbeProcess.start(List.of("unshare", "-U", "-r"),
                "echo 6 > /proc/sys/user/max_inotify_watches", List.of(), temp.resolve("probe.stderr"),
                root.toString(), f.toString(), "true")) {
            probe.next(BOUND);
            String mode = probe.next(BOUND);
            assertTrue(mode.startsWith("mode polling: ") && mode.contains("max_user_watches"), mode);
            assertEquals("gen 1 ok", probe.next(BOUND));
            MetadataFiles.rewriteInPlace(f, metadata(2));
            probe.awaitGeneration(2, BOUND);
        }
    }
}
