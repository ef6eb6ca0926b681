package dev.dra.sidecar.reliability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.DeviceMetadataJson;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.MetadataFiles;
import dev.dra.sidecar.testsupport.PackagedSidecar;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * As many clients as the sidecar admits long polls by default (dra.api.max-long-polls) long-poll the packaged sidecar (with the image's JVM options and heap) for over 30 s while four
 * more hammer it with plain GETs: the server's threads stay flat, its RSS stays under the pod's memory limit, and
 * every waiter is answered — on a change (half of them, woken by rewrites) and at its timeout (the other half).
 */
class LongPollLoadIT {

    private static final int WAITERS = defaultMaxLongPolls();
    private static final Duration RUN = Duration.ofSeconds(31);
    private static final int TIMEOUT_SECONDS = 5;
    /** The container's memory limit (deploy/kubernetes): 160Mi. */
    private static final long RSS_LIMIT_KIB = 160 * 1024;

    private static int defaultMaxLongPolls() {
        try {
            return Integer.parseInt(dev.dra.sidecar.api.ApiConfig.class.getMethod("maxLongPolls")
                    .getAnnotation(io.smallrye.config.WithDefault.class).value());
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The claim's object at {@code generation}, with the generation also as attribute {@code gen}. */
    private static String object(String claim, long generation) {
        return DeviceMetadataJson.forClaim(claim).generation(generation)
                .attributes("\"gen\":{\"int\":" + generation + "}").json();
    }

    @Test
    void theAdmittedLongPollsUnderSteadyLoadCostNoThreadsAndAreAllAnswered() throws Exception {
        Path root = Files.createTempDirectory("dra-load").resolve("root");
        Path changing = root.resolve("resourceclaims/changing/gpu/gpu.example.com-metadata.json");
        Path still = root.resolve("resourceclaims/still/gpu/gpu.example.com-metadata.json");
        MetadataFiles.create(changing, object("changing", 1));
        MetadataFiles.create(still, object("still", 1));

        try (PackagedSidecar sidecar = PackagedSidecar.start("load", root, List.of(), List.of(), Map.of())) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10)).build();
            String stillEtag = sidecar.get("/claims/still/gpu").headers().firstValue("ETag").orElseThrow();
            AtomicReference<String> changingEtag =
                    new AtomicReference<>(sidecar.get("/claims/changing/gpu").headers().firstValue("ETag").orElseThrow());
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            long ends = System.nanoTime() + RUN.toNanos();

            // Steady load: four threads of plain GETs, all answered 200.
            AtomicLong steady = new AtomicLong();
            List<Thread> loaders = new ArrayList<>();
            String[] paths = {"/claims", "/claims/still/gpu", "/claims/still", "/claims/still/gpu/devices/gpu-0/attributes/gen",
                "/template-claims"};
            for (int t = 0; t < 4; t++) {
                int offset = t;
                Thread loader = new Thread(() -> {
                    int n = offset;
                    while (System.nanoTime() < ends && failures.size() < 20) {
                        String path = paths[n++ % paths.length];
                        try {
                            HttpResponse<String> r = sidecar.get(path);
                            if (r.statusCode() != 200) {
                                failures.add("GET " + path + " -> " + r.statusCode() + " " + r.body());
                            }
                            steady.incrementAndGet();
                        } catch (IOException e) {
                            failures.add("GET " + path + " -> " + e);
                        }
                    }
                }, "steady-" + t);
                loader.start();
                loaders.add(loader);
            }
            Eventually.becomesTrue(Duration.ofSeconds(2), () -> steady.get() > 200);
            int threadsBefore = sidecar.threads();
            long rssBefore = sidecar.rssKib();

            // The waiters: each re-polls as soon as it is answered, so WAITERS wait at any time.
            AtomicInteger answeredOnChange = new AtomicInteger();
            AtomicInteger answeredAtTimeout = new AtomicInteger();
            AtomicInteger outstanding = new AtomicInteger();
            AtomicLong changedAt = new AtomicLong();
            AtomicLong slowestChangeAnswerNanos = new AtomicLong();
            for (int i = 0; i < WAITERS; i++) {
                if (i % 2 == 0) {
                    pollForChange(client, sidecar, changingEtag.get(), ends, failures, answeredOnChange, outstanding,
                            changedAt, slowestChangeAnswerNanos);
                } else {
                    pollToTimeout(client, sidecar, stillEtag, ends, failures, answeredAtTimeout, outstanding);
                }
            }

            // Change the file every 7 s; sample threads and memory while the waiters wait.
            Map<String, Long> before = sidecar.threadNames();
            Map<String, Long> atMax = before;
            int maxThreads = 0;
            int minThreads = Integer.MAX_VALUE;
            long maxRss = 0;
            long generation = 1;
            long nextChange = System.nanoTime() + TimeUnit.SECONDS.toNanos(7);
            while (System.nanoTime() < ends) {
                if (System.nanoTime() - nextChange >= 0 && ends - System.nanoTime() > TimeUnit.SECONDS.toNanos(3)) {
                    generation++;
                    changedAt.set(System.nanoTime());
                    Files.writeString(changing, object("changing", generation));
                    nextChange += TimeUnit.SECONDS.toNanos(7);
                }
                assertTrue(sidecar.isAlive(), "the sidecar exited during the load:\n" + sidecar.log());
                int threads = sidecar.threads();
                if (threads > maxThreads) {
                    atMax = sidecar.threadNames();
                }
                maxThreads = Math.max(maxThreads, threads);
                minThreads = Math.min(minThreads, threads);
                maxRss = Math.max(maxRss, sidecar.rssKib());
                Eventually.pause(Duration.ofMillis(200));
            }
            for (Thread loader : loaders) {
                loader.join(TimeUnit.SECONDS.toMillis(30));
            }
            // A last change answers the change waiters still out; the timeout waiters end at their timeout.
            generation++;
            changedAt.set(System.nanoTime());
            Files.writeString(changing, object("changing", generation));
            boolean drained = Eventually.becomesTrue(Duration.ofSeconds(TIMEOUT_SECONDS + 20),
                    () -> outstanding.get() == 0);
            long rssAfter = sidecar.rssKib();
            int threadsAfter = sidecar.threads();

            int changes = (int) generation - 2; // changes made during the run; the last one drains
            System.out.printf("[load] %d waiters for %d s with %d steady GETs: %d answered on %d changes (slowest %d ms "
                            + "after the change), %d at the %d s timeout; server threads %d before, %d..%d during, %d "
                            + "after; RSS %d MiB before, max %d MiB, %d MiB after (limit %d MiB)%n",
                    WAITERS, RUN.toSeconds(), steady.get(), answeredOnChange.get(), changes,
                    TimeUnit.NANOSECONDS.toMillis(slowestChangeAnswerNanos.get()), answeredAtTimeout.get(),
                    TIMEOUT_SECONDS, threadsBefore, minThreads, maxThreads, threadsAfter, rssBefore / 1024,
                    maxRss / 1024, rssAfter / 1024, RSS_LIMIT_KIB / 1024);
            System.out.println("[load] threads before: " + before + "\n[load] threads at the most: " + atMax);
            assertTrue(failures.isEmpty(), failures.size() + " failures, first: " + failures.stream().limit(5).toList());
            assertTrue(drained, outstanding.get() + " waiters never answered");
            assertTrue(changes >= 3, "changes made: " + changes);
            assertTrue(answeredOnChange.get() >= changes * WAITERS / 2, "every change waiter answered at every change: "
                    + answeredOnChange.get());
            // Each timeout waiter polls again at once: at least 5 full rounds of 5 s fit in the 31 s (the first
            // starts while the WAITERS requests are being sent, each round takes a little over 5 s).
            assertTrue(answeredAtTimeout.get() >= (RUN.toSeconds() / TIMEOUT_SECONDS - 1) * WAITERS / 2,
                    "every timeout waiter answered at each timeout: " + answeredAtTimeout.get());
            assertTrue(maxThreads - threadsBefore <= 4, "threads flat: " + threadsBefore + " before, max " + maxThreads);
            assertTrue(maxRss < RSS_LIMIT_KIB, "RSS under the pod limit: " + maxRss / 1024 + " MiB");
            assertTrue(sidecar.isAlive());
        }
    }

    private static HttpRequest longPoll(PackagedSidecar sidecar, String path, String etag, int timeoutSeconds) {
        return HttpRequest.newBuilder(sidecar.uri(path + "?waitForChange=true&timeoutSeconds=" + timeoutSeconds
                + "&lastEtag=" + URLEncoder.encode(etag, StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(timeoutSeconds + 30)).build();
    }

    /** Waits for a change of /claims/changing/gpu; answered with a new ETag soon after each rewrite. */
    private static void pollForChange(HttpClient client, PackagedSidecar sidecar, String etag, long ends,
            ConcurrentLinkedQueue<String> failures, AtomicInteger answered, AtomicInteger outstanding, AtomicLong changedAt,
            AtomicLong slowest) {
        outstanding.incrementAndGet();
        client.sendAsync(longPoll(sidecar, "/claims/changing/gpu", etag, 60), HttpResponse.BodyHandlers.ofString())
                .whenComplete((r, e) -> {
                    try {
                        if (e != null) {
                            if (System.nanoTime() < ends) {
                                failures.add("change waiter: " + e);
                            }
                            return;
                        }
                        String newEtag = r.headers().firstValue("ETag").orElse(etag);
                        if (r.statusCode() != 200 || newEtag.equals(etag)) {
                            failures.add("change waiter: " + r.statusCode() + " same ETag " + newEtag.equals(etag) + " " + r.body());
                            return;
                        }
                        answered.incrementAndGet();
                        long late = System.nanoTime() - changedAt.get();
                        slowest.accumulateAndGet(late, Math::max);
                        if (late > TimeUnit.SECONDS.toNanos(5)) {
                            failures.add("change waiter answered " + TimeUnit.NANOSECONDS.toMillis(late) + " ms after the change");
                        }
                        if (System.nanoTime() < ends) {
                            pollForChange(client, sidecar, newEtag, ends, failures, answered, outstanding, changedAt, slowest);
                        }
                    } finally {
                        outstanding.decrementAndGet();
                    }
                });
    }

    /** Waits on /claims/still/gpu, which never changes: answered at the timeout with the same ETag. */
    private static void pollToTimeout(HttpClient client, PackagedSidecar sidecar, String etag, long ends,
            ConcurrentLinkedQueue<String> failures, AtomicInteger answered, AtomicInteger outstanding) {
        outstanding.incrementAndGet();
        long sent = System.nanoTime();
        client.sendAsync(longPoll(sidecar, "/claims/still/gpu", etag, TIMEOUT_SECONDS), HttpResponse.BodyHandlers.ofString())
                .whenComplete((r, e) -> {
                    try {
                        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
                        if (e != null) {
                            failures.add("timeout waiter: " + e);
                            return;
                        }
                        if (r.statusCode() != 200 || !etag.equals(r.headers().firstValue("ETag").orElse(""))) {
                            failures.add("timeout waiter: " + r.statusCode() + " " + r.headers().map() + " " + r.body());
                            return;
                        }
                        if (waited < TIMEOUT_SECONDS * 1000L - 50 || waited > TIMEOUT_SECONDS * 1000L + 5_000) {
                            failures.add("timeout waiter answered after " + waited + " ms, not at " + TIMEOUT_SECONDS + " s");
                            return;
                        }
                        answered.incrementAndGet();
                        if (System.nanoTime() < ends) {
                            pollToTimeout(client, sidecar, etag, ends, failures, answered, outstanding);
                        }
                    } finally {
                        outstanding.decrementAndGet();
                    }
                });
    }
}
