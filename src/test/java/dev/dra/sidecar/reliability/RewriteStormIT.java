package dev.dra.sidecar.reliability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dra.sidecar.testsupport.DeviceMetadataJson;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.FileTrees;
import dev.dra.sidecar.testsupport.PackagedSidecar;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Drivers rewrite their files in place (truncate, then write: Go's os.WriteFile), and the kubelet hands each file
 * to the container as a single-file read-only bind mount, so a reader can catch a file empty or half-written and a
 * watch on its directory reports nothing (docs/reliability.md). Under a storm of such
 * rewrites, clients reading all the time must only ever see whole versions that were written, never an error once
 * a file has decoded, never a generation going backwards, and the last version soon after the storm ends.
 */
class RewriteStormIT {

    private static final int FILES = 4;
    private static final int CLIENTS = 4;
    private static final Duration STORM = Duration.ofSeconds(21);
    private static final int TARGET_REWRITES_PER_SECOND = 1_300;
    private static final Duration PROPAGATION_BOUND = Duration.ofSeconds(1);
    private static final String DRIVER = "gpu.example.com";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the driver writes for one generation: v1alpha1 for even files (served re-labelled), v1beta1 for odd. */
    static String version(int file, long generation) {
        String padding = "x".repeat((int) (generation % 7) * 40);
        return DeviceMetadataJson.forClaim("storm")
                .apiVersion(file % 2 == 0 ? DeviceMetadataJson.V1ALPHA1 : DeviceMetadataJson.V1BETA1)
                .generation(generation).request("r" + file).driver(DRIVER).pool("pool-" + file).device("gpu-" + file)
                .attributes("\"gen\":{\"int\":" + generation + "},\"model\":{\"string\":\"" + padding + "\"}").json();
    }

    @Test
    void clientsSeeOnlyWholeWrittenVersionsDuringARewriteStorm() throws Exception {
        // The driver's files live on tmpfs, as on a node (/var/run is tmpfs): the writer is not what is measured.
        Path work = FileTrees.temporaryDirectoryOnTmpfs("dra-storm");
        Path root = work.resolve("root");
        Path host = Files.createDirectories(work.resolve("driver"));
        boolean bindMounts = PackagedSidecar.canBindMount();
        Path[] written = new Path[FILES];
        List<String> mounts = new ArrayList<>();
        for (int i = 0; i < FILES; i++) {
            Path target = root.resolve("resourceclaims/storm/r" + i + "/" + DRIVER + "-metadata.json");
            Files.createDirectories(target.getParent());
            if (bindMounts) {
                written[i] = host.resolve("r" + i + "-metadata.json");
                Files.createFile(target); // the kubelet's mount point: an empty file
                String t = PackagedSidecar.shellQuote(target.toString());
                mounts.add("mount --bind " + PackagedSidecar.shellQuote(written[i].toString()) + " " + t);
                mounts.add("mount -o remount,bind,ro " + t);
            } else {
                written[i] = target;
            }
            Files.writeString(written[i], version(i, 1), StandardCharsets.UTF_8);
        }
        if (!bindMounts) {
            System.out.println("[storm] NOTE: cannot make a mount namespace here (not root or no unshare): "
                    + "files are rewritten in place under the root without bind mounts");
        }
        List<String> prefix = bindMounts ? List.of("unshare", "-m", "--propagation", "private") : List.of();
        try (PackagedSidecar sidecar = PackagedSidecar.start("storm", root, prefix, mounts, Map.of())) {
            // Every file decodes before the storm: from here on, no answer may be an error.
            for (int i = 0; i < FILES; i++) {
                int file = i;
                Eventually.awaitTrue(Duration.ofSeconds(10), "file " + i + " served before the storm",
                        () -> generationServed(sidecar, file) == 1);
            }

            AtomicLongArray generations = new AtomicLongArray(FILES);
            for (int i = 0; i < FILES; i++) {
                generations.set(i, 1);
            }
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            AtomicLong responses = new AtomicLong();
            AtomicLong staleResponses = new AtomicLong();
            long stormEnds = System.nanoTime() + STORM.toNanos();
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                Thread t = new Thread(() -> read(sidecar, client, stormEnds, failures, responses, staleResponses),
                        "storm-client-" + c);
                t.start();
                clients.add(t);
            }

            // The driver: round robin over the files, paced to the target rate, catching up when behind.
            long started = System.nanoTime();
            long rewrites = 0;
            int seconds = (int) STORM.toSeconds();
            long[] perSecond = new long[seconds + 1];
            long lastWriteNanos = started;
            while (System.nanoTime() < stormEnds) {
                long due = started + rewrites * TimeUnit.SECONDS.toNanos(1) / TARGET_REWRITES_PER_SECOND;
                long now = System.nanoTime();
                if (due > now) {
                    LockSupport.parkNanos(due - now);
                    continue;
                }
                int file = (int) (rewrites % FILES);
                long generation = generations.get(file) + 1;
                // Files.write = open(O_WRONLY|O_CREAT|O_TRUNC) + write, as Go's os.WriteFile: readers can see it empty or cut short.
                Files.write(written[file], version(file, generation).getBytes(StandardCharsets.UTF_8));
                generations.set(file, generation);
                rewrites++;
                lastWriteNanos = System.nanoTime();
                perSecond[(int) Math.min(seconds, (lastWriteNanos - started) / 1_000_000_000L)]++;
            }
            double elapsed = (lastWriteNanos - started) / 1e9;
            double rate = rewrites / elapsed;
            long slowestSecond = Long.MAX_VALUE;
            for (int s = 0; s < seconds - 1; s++) {
                slowestSecond = Math.min(slowestSecond, perSecond[s]);
            }

            // The last version of every file is served within the propagation bound.
            long[] settledMillis = new long[FILES];
            for (int i = 0; i < FILES; i++) {
                int file = i;
                long last = generations.get(i);
                Duration left = PROPAGATION_BOUND.minusNanos(System.nanoTime() - lastWriteNanos);
                boolean served = Eventually.becomesTrue(left, () -> generationServed(sidecar, file) == last);
                settledMillis[i] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastWriteNanos);
                assertTrue(served, "file " + i + " serves its last generation " + last + " within " + PROPAGATION_BOUND
                        + " of the last write; serves " + generationServed(sidecar, file));
            }
            for (Thread t : clients) {
                t.join(TimeUnit.SECONDS.toMillis(30));
            }

            System.out.printf("[storm] %s: %d rewrites of %d files in %.1f s = %.0f rewrites/s (slowest second %d); "
                            + "%d responses checked by %d clients (%d with a stale Warning); last generations served "
                            + "%s ms after the last write%n",
                    bindMounts ? "read-only bind mounts" : "plain files", rewrites, FILES, elapsed, rate, slowestSecond,
                    responses.get(), CLIENTS, staleResponses.get(), java.util.Arrays.toString(settledMillis));
            assertTrue(failures.isEmpty(), failures.size() + " bad responses, first: " + failures.stream().limit(5).toList());
            assertTrue(rate >= 1_000, "held at least 1,000 rewrites/s: " + rate);
            assertTrue(responses.get() > 1_000, "clients read continuously: " + responses.get());
            assertTrue(sidecar.isAlive(), "sidecar still running");
        }
    }

    /** One client: reads each file's driver object and merged request in turn until the storm ends. */
    private static void read(PackagedSidecar sidecar, int client, long until, ConcurrentLinkedQueue<String> failures,
            AtomicLong responses, AtomicLong stale) {
        long[] lastSeen = new long[FILES];
        int n = client;
        while (System.nanoTime() < until && failures.size() < 20) {
            int file = n % FILES;
            boolean merged = (n / FILES) % 2 == 1;
            n++;
            String path = "/claims/storm/r" + file + (merged ? "" : "/drivers/" + DRIVER);
            try {
                HttpResponse<String> r = sidecar.get(path);
                responses.incrementAndGet();
                if (r.headers().firstValue("Warning").isPresent()) {
                    stale.incrementAndGet();
                }
                if (r.statusCode() != 200) {
                    failures.add(path + " -> " + r.statusCode() + " " + r.body());
                    continue;
                }
                JsonNode body = JSON.readTree(r.body());
                long generation = body.at("/requests/0/devices/0/attributes/gen/int").asLong(-1);
                JsonNode expected = JSON.readTree(version(file, generation));
                ((ObjectNode) expected).put("apiVersion", "metadata.resource.k8s.io/v1beta1");
                if (merged) {
                    // The merged object has no generation (per file); its requests must be those of one written version.
                    if (generation < 1 || !expected.get("requests").equals(body.get("requests"))
                            || !"metadata.resource.k8s.io/v1beta1".equals(body.path("apiVersion").asText())) {
                        failures.add(path + " -> not a written version: " + r.body());
                        continue;
                    }
                } else if (generation < 1 || !expected.equals(body)
                        || body.at("/metadata/generation").asLong() != generation) {
                    failures.add(path + " -> not a written version: " + r.body());
                    continue;
                }
                if (generation < lastSeen[file]) {
                    failures.add(path + " -> generation went back from " + lastSeen[file] + " to " + generation);
                }
                lastSeen[file] = generation;
            } catch (IOException | RuntimeException e) {
                failures.add(path + " -> " + e);
            }
        }
    }

    private static long generationServed(PackagedSidecar sidecar, int file) {
        try {
            HttpResponse<String> r = sidecar.get("/claims/storm/r" + file + "/drivers/" + DRIVER);
            return r.statusCode() == 200 ? JSON.readTree(r.body()).at("/metadata/generation").asLong(-1) : -r.statusCode();
        } catch (IOException e) {
            return -1;
        }
    }
}
