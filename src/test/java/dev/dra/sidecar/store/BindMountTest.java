package dev.dra.sidecar.store;

import static dev.dra.sidecar.snapshot.ClaimKind.CLAIM;
import static dev.dra.sidecar.store.StoreFiles.metadata;
import static dev.dra.sidecar.testsupport.MetadataFiles.create;
import static dev.dra.sidecar.testsupport.MetadataFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.dra.sidecar.testsupport.MetadataFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store as it runs in a pod: the metadata file is a read-only single-file bind mount of a host file (what
 * the CDI mount {@code {"options":["ro","bind"]}} makes the runtime do), and the driver rewrites the host file
 * in place. A watch on the file's directory sees nothing there (a write through the host's inode raises no
 * event on the mount point's directory; the probe's own watch must report none); every generation must still
 * arrive, by polling.
 *
 * <p>A JVM cannot enter a new mount namespace, so the store runs in a child JVM ({@link BindMountProbe})
 * started by {@code unshare -m} after the two mounts. Needs root and util-linux; skipped, saying so, without.
 */
class BindMountTest {

    private static final Duration BOUND = Duration.ofSeconds(5);

    @TempDir
    Path temp;

    @Test
    void everyInPlaceRewriteOfTheHostFileReachesTheStoreThroughAReadOnlyBindMount() throws Exception {
        Path unshare = onPath("unshare");
        Assumptions.assumeTrue(unshare != null, "unshare (util-linux) is not installed: no mount namespace");
        Assumptions.assumeTrue(isRoot(), "not root: cannot make a mount namespace with a bind mount");

        Path host = temp.resolve("host/plugins/gpu.example.com/dra-device-metadata/ns_c/r/metadata.json");
        create(host, metadata(1));
        Path root = temp.resolve("root");
        Path target = file(root, CLAIM, "c", "r", "d");
        create(target, new byte[0]); // a bind mount needs a file to mount over
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());

        ProcessBuilder builder = new ProcessBuilder(unshare.toString(), "-m", "--propagation", "private", "sh", "-c",
                "mount --bind \"$1\" \"$2\" && mount -o remount,bind,ro \"$2\" && exec \"$3\" -Xmx64m"
                        + " -XX:TieredStopAtLevel=1 -cp \"$4\" dev.dra.sidecar.store.BindMountProbe \"$5\" \"$2\"",
                "sh", host.toString(), target.toString(), java, System.getProperty("java.class.path"),
                root.toString());
        Path stderr = temp.resolve("probe.stderr");
        builder.redirectError(stderr.toFile());
        Process probe = builder.start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread pump = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(probe.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the probe ended
            }
            lines.add("EOF");
        }, "probe-stdout");
        pump.setDaemon(true);
        pump.start();
        List<String> seen = new ArrayList<>();
        try {
            String ro = next(lines, seen, Duration.ofSeconds(20), probe, stderr);
            assertTrue(ro.startsWith("ro ") && ro.contains("Read-only file system"),
                    "the file must be a read-only mount inside the namespace, got: " + ro);
            assertEquals("watching true", next(lines, seen, BOUND, probe, stderr), "watch hints on, as in a pod");
            assertEquals("gen 1 stale false", next(lines, seen, BOUND, probe, stderr));
            assertEquals(0, Files.size(target), "the bind mount must stay inside the namespace");

            long slowest = 0;
            for (long g = 2; g <= 6; g++) {
                long start = System.nanoTime();
                MetadataFiles.rewriteInPlace(host, metadata(g));
                awaitGeneration(lines, seen, g, probe, stderr);
                slowest = Math.max(slowest, System.nanoTime() - start);
            }
            System.out.println("[bind-mount] 5 in-place rewrites seen through a read-only single-file bind mount; "
                    + "slowest " + TimeUnit.NANOSECONDS.toMillis(slowest) + " ms; probe said " + seen);

            // Replacing the host file by rename leaves the mount on the old inode: nothing new can arrive.
            MetadataFiles.replaceByRename(host, metadata(99));
            String after = lines.poll(500, TimeUnit.MILLISECONDS);
            assertEquals(null, after, "a rename on the host cannot reach a bind-mounted file");
        } finally {
            probe.destroy();
            if (!probe.waitFor(5, TimeUnit.SECONDS)) {
                probe.destroyForcibly();
            }
        }
    }

    /** Waits for {@code gen <generation> stale false}; earlier (possibly stale) generations may come first. */
    private static void awaitGeneration(BlockingQueue<String> lines, List<String> seen, long generation,
            Process probe, Path stderr) throws Exception {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (true) {
            String line = next(lines, seen, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())), probe, stderr);
            if (line.equals("gen " + generation + " stale false")) {
                return;
            }
            if (!line.startsWith("gen ") || Long.parseLong(line.split(" ")[1]) > generation
                    || Long.parseLong(line.split(" ")[1]) < generation - 1) {
                fail("while waiting for generation " + generation + " the probe said: " + line);
            }
        }
    }

    private static String next(BlockingQueue<String> lines, List<String> seen, Duration timeout, Process probe,
            Path stderr) throws Exception {
        String line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null || line.equals("EOF")) {
            fail((line == null ? "nothing from the probe within " + timeout.toMillis() + " ms" : "the probe ended")
                    + " after " + seen + (probe.isAlive() ? "" : ", exit " + probe.exitValue()) + "; stderr:\n"
                    + tail(stderr));
        }
        seen.add(line);
        return line;
    }

    private static String tail(Path file) throws IOException {
        List<String> all = Files.exists(file) ? Files.readAllLines(file) : List.of();
        return String.join("\n", all.subList(Math.max(0, all.size() - 30), all.size()));
    }

    private static boolean isRoot() throws IOException {
        return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    }

    private static Path onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path candidate = Path.of(dir, command);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
