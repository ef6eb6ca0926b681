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
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store as it runs in a pod: the metadata file is a read-only single-file bind mount of a host file (what
 * the CDI mount {@code {"options":["ro","bind"]}} makes the runtime do), and the driver rewrites the host file
 * in place. Directory watches see nothing there (spec §8: the probe's own watch must report no event); every
 * generation must still arrive, through the watch on the file itself, and by polling when notifications are off.
 * A host that replaces the file by rename detaches the mount: the store must say so and keep serving.
 *
 * <p>A JVM cannot enter a new mount namespace, so the store runs in a child JVM ({@link BindMountProbe})
 * started by {@code unshare -m} after the two mounts. Needs root and util-linux; skipped, saying so, without.
 */
class BindMountTest {

    @TempDir
    Path temp;

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void everyInPlaceRewriteOfTheHostFileReachesTheStoreAndARenameOverItDetachesIt(boolean watch) throws Exception {
        Assumptions.assumeTrue(ProbeProcess.onPath("unshare") != null,
                "unshare (util-linux) is not installed: no mount namespace");
        Assumptions.assumeTrue(ProbeProcess.isRoot(), "not root: cannot make a mount namespace with a bind mount");

        Path host = temp.resolve("host/plugins/gpu.example.com/dra-device-metadata/ns_c/r/metadata.json");
        create(host, metadata(1));
        Path root = temp.resolve("root");
        Path target = file(root, CLAIM, "c", "r", "d");
        create(target, new byte[0]); // a bind mount needs a file to mount over
        String mounts = "mount --bind '" + host + "' '" + target + "' && mount -o remount,bind,ro '" + target + "'";
        try (ProbeProcess probe = ProbeProcess.start(List.of("unshare", "-m", "--propagation", "private"), mounts,
                List.of(), temp.resolve("probe.stderr"), root.toString(), target.toString(), String.valueOf(watch))) {
            String ro = probe.next(BOUND);
            assertTrue(ro.startsWith("ro ") && ro.contains("Read-only file system"),
                    "the file must be a read-only mount inside the namespace, got: " + ro);
            assertTrue(probe.next(BOUND).startsWith(watch ? "mode inotify" : "mode polling"));
            assertEquals("gen 1 ok", probe.next(BOUND));
            assertEquals(0, Files.size(target), "the bind mount must stay inside the namespace");

            long slowest = 0;
            for (long g = 2; g <= 6; g++) {
                long start = System.nanoTime();
                MetadataFiles.rewriteInPlace(host, metadata(g));
                probe.awaitGeneration(g, BOUND);
                slowest = Math.max(slowest, System.nanoTime() - start);
            }
            System.out.println("[bind-mount watch=" + watch + "] 5 in-place rewrites seen through a read-only "
                    + "single-file bind mount; slowest " + TimeUnit.NANOSECONDS.toMillis(slowest) + " ms");

            // Replacing the host file by rename leaves the mount on the old, deleted inode: the store says so and
            // keeps serving the last object...
            MetadataFiles.replaceByRename(host, metadata(99));
            assertEquals("gen 6 detached", probe.next(BOUND));
            // ...and nothing written to the host's new file can arrive.
            MetadataFiles.rewriteInPlace(host, metadata(100));
            assertEquals(null, probe.poll(Duration.ofMillis(500)),
                    "a rename on the host cannot reach a bind-mounted file; probe said " + probe.seen());
        }
    }

}
