package dev.dra.sidecar.store;

import static dev.dra.sidecar.snapshot.ClaimKind.CLAIM;
import static dev.dra.sidecar.store.StoreFiles.create;
import static dev.dra.sidecar.store.StoreFiles.file;
import static dev.dra.sidecar.store.StoreFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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

    private static final Duration BOUND = Duration.ofSeconds(5);

    @TempDir
    Path temp;

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void everyInPlaceRewriteOfTheHostFileReachesTheStoreAndARenameOverItDetachesIt(boolean watch) throws Exception {
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
                        + " -XX:TieredStopAtLevel=1 -cp \"$4\" dev.dra.sidecar.store.BindMountProbe \"$5\" \"$2\" \"$6\"",
                "sh", host.toString(), target.toString(), java, System.getProperty("java.class.path"),
                root.toString(), String.valueOf(watch));
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
            assertEquals(watch ? "mode inotify" : "mode polling", next(lines, seen, BOUND, probe, stderr));
            assertEquals("gen 1 ok", next(lines, seen, BOUND, probe, stderr));
            assertEquals(0, Files.size(target), "the bind mount must stay inside the namespace");

            long slowest = 0;
            for (long g = 2; g <= 6; g++) {
                long start = System.nanoTime();
                StoreFiles.rewriteInPlace(host, metadata(g));
                awaitGeneration(lines, seen, g, probe, stderr);
                slowest = Math.max(slowest, System.nanoTime() - start);
            }
            System.out.println("[bind-mount watch=" + watch + "] 5 in-place rewrites seen through a read-only "
                    + "single-file bind mount; slowest " + TimeUnit.NANOSECONDS.toMillis(slowest) + " ms");

            // Replacing the host file by rename leaves the mount on the old, deleted inode: the store says so and
            // keeps serving the last object...
            StoreFiles.replaceByRename(host, metadata(99));
            assertEquals("gen 6 detached", next(lines, seen, BOUND, probe, stderr));
            // ...and nothing written to the host's new file can arrive.
            StoreFiles.rewriteInPlace(host, metadata(100));
            String after = lines.poll(500, TimeUnit.MILLISECONDS);
            assertEquals(null, after, "a rename on the host cannot reach a bind-mounted file; probe said " + seen);
        } finally {
            probe.destroy();
            if (!probe.waitFor(5, TimeUnit.SECONDS)) {
                probe.destroyForcibly();
            }
        }
    }

    /** Waits for {@code gen <generation> ok}; earlier (possibly stale) generations may come first. */
    private static void awaitGeneration(BlockingQueue<String> lines, List<String> seen, long generation,
            Process probe, Path stderr) throws Exception {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (true) {
            String line = next(lines, seen, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())), probe, stderr);
            if (line.equals("gen " + generation + " ok")) {
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
