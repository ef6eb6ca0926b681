package dev.dra.sidecar.image;

import static dev.dra.sidecar.image.PodLikeContainer.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.image.OversizedTree.TreeFile;
import dev.dra.sidecar.store.file.HeldBudget;
import dev.dra.sidecar.testsupport.CleanLog;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.FileTrees;
import dev.dra.sidecar.testsupport.MetadataFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The memory bound on the packaged image at the manifests' memory limit (src/test/image/run-like-pod.sh): the bench's
 * tree of 10,000 small files is held and served in full, and a tree well past what the sidecar may hold never ends in
 * an OOM kill or OutOfMemoryError. The sidecar starts (its startup check and the postStart hook pass), serves the
 * files that fit, answers {@code 507 memory-bound-reached} for the tracked ones that do not and {@code 404} for those
 * past even the tracking, says so in the readiness and startup data (counts that add up to the tree and agree with
 * what the API answers and with the documented charges) and in one WARN line, and keeps serving rewrites. Prints the
 * container's cgroup memory peak for docs/operations.md. Skipped, saying why, where podman cannot run containers.
 */
class MemoryBoundImageIT {

    private static final String NAME = "dra-memory-bound-it";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration PROPAGATION = Duration.ofSeconds(30);

    /** The bench's 10,000-file tree: 1,000 claims of 10 small files. */
    private static final int BENCH_CLAIMS = 1000;

    /** 16,000 files, 1,280 of them dense: past the bound's tracking share, so some are not even tracked. */
    private static final int OVERSIZED_CLAIMS = 1600;

    /** 100,000 small files: far past what the bound tracks, so that most of the tree is only counted. */
    private static final int HUGE_CLAIMS = 10_000;

    private static Path hugeRoot;

    private static Path benchRoot;
    private static List<TreeFile> bench;
    private static Path root;
    private static List<TreeFile> files;

    @BeforeAll
    static void buildTheImageAndTheTrees() throws IOException {
        String why = Podman.whyPodmanCannotRun();
        Assumptions.assumeTrue(why == null, () -> "image test skipped: " + why);
        buildImage();
        benchRoot = FileTrees.temporaryDirectoryOnTmpfs("dra-bench-tree");
        bench = OversizedTree.write(benchRoot, BENCH_CLAIMS);
        FileTrees.makeReadableByAll(benchRoot); // the image's user 1001 reads it
        root = FileTrees.temporaryDirectoryOnTmpfs("dra-bound-tree");
        files = OversizedTree.withDenseFiles(root, OVERSIZED_CLAIMS);
        FileTrees.makeReadableByAll(root);
    }

    @AfterEach
    void removeTheContainer() {
        Podman.podman(60, "rm", "--force", "--time", "0", NAME);
    }

    @AfterAll
    static void removeTheTrees() {
        for (Path tree : new Path[] {benchRoot, root, hugeRoot}) {
            if (tree != null) {
                FileTrees.deleteTree(tree);
            }
        }
    }

    @Test
    void holdsAndServesTheBenchsTenThousandFiles() throws Exception {
        long started = System.nanoTime();
        runLikePod(NAME, benchRoot, null);
        double upAfter = awaitStarted(NAME);
        MemoryBoundEntry entry = entry("/q/health/ready", "dra-metadata-present");
        assertEquals(bench.size(), entry.held(), "every file held: " + entry);
        assertEquals(0, entry.refused() + entry.untracked(), "none refused: " + entry);
        Map<Integer, List<TreeFile>> byStatus = byStatus(bench);
        assertEquals(Set.of(200), byStatus.keySet(), "every file served: " + byStatus.keySet());
        servedWithItsMetadata(bench.get(bench.size() / 2));
        String log = logs(NAME);
        assertEquals(List.of(), alertingLines(log), "no WARN line");
        String scan = log.lines().filter(l -> l.contains("Read " + bench.size() + " new metadata files in ")).findFirst()
                .orElseThrow(() -> new AssertionError("one summary line for the scan:\n" + log));
        assertEquals("running", inspect(NAME, "{{.State.Status}}"), log);
        assertEquals("false", inspect(NAME, "{{.State.OOMKilled}}"));
        Path cgroup = memoryCgroup(NAME);
        System.out.printf("[image] %d files of the bench's kind at the %s limit: %d held, %s estimated of %s; started "
                + "UP after %.1f s; %s; cgroup memory peak %.1f MiB, rss now %.1f MiB; %d s in all%n", bench.size(),
                manifestMemoryLimit(), entry.held(), entry.estimate(), entry.bound(), upAfter,
                scan.substring(scan.indexOf("Read ")), memoryPeak(cgroup) / 1048576.0, rss(cgroup) / 1048576.0,
                seconds(started));
    }

    @Test
    void servesWhatFitsRefusesTheRestAndIsNeverOomKilled() throws Exception {
        long started = System.nanoTime();
        runLikePod(NAME, root, null);
        double upAfter = awaitStarted(NAME);
        Podman.Result hook = Podman.podman(150, "exec", NAME, "/opt/jre/bin/java", "@/deployments/await-started", "120");
        assertEquals(0, hook.exit(), "the postStart hook returns once the sidecar has started:\n" + hook.output());

        MemoryBoundEntry entry = entry("/q/health/ready", "dra-metadata-present");
        assertEquals(entry, entry("/q/health/started", "dra-metadata-present-at-start"), "startup says the same");
        assertEquals(files.size(), entry.held() + entry.refused() + entry.untracked(), "every file counted: " + entry);
        assertTrue(entry.held() > 0 && entry.refused() > 0 && entry.untracked() > 0, "both refusals: " + entry);
        assertTrue(entry.remedy().contains("memory limit") && entry.remedy().contains("dra.metadata.max-held"), entry.remedy());

        Map<Integer, List<TreeFile>> byStatus = byStatus(files);
        assertEquals(Set.of(200, 507, 404), byStatus.keySet(), "held, refused, untracked");
        assertEquals(entry.held(), byStatus.get(200).size(), "held files answer 200");
        assertEquals(entry.refused(), byStatus.get(507).size(), "refused files answer 507");
        assertEquals(entry.untracked(), byStatus.get(404).size(), "untracked files answer 404");
        assertEquals(indexed(), paths(byStatus.get(200), byStatus.get(507)), "GET /claims lists the tracked files");
        long estimate = chargedAsDocumented(entry, byStatus.get(200), byStatus.get(507));

        TreeFile held = byStatus.get(200).stream().filter(f -> !f.dense()).findFirst().orElseThrow();
        servedWithItsMetadata(held);
        refusedWithTheBound(byStatus.get(507).get(0), entry);
        HttpResponse<String> untracked = get(API + byStatus.get(404).get(0).apiPath());
        assertEquals(404, untracked.statusCode(), untracked.body());
        assertEquals("not-found", JSON.readTree(untracked.body()).get("code").asText());
        loggedOnce(entry, 0);

        MetadataFiles.rewriteInPlace(held.path(), held.generation(2).content());
        Eventually.await(PROPAGATION, () -> get(API + held.driverPath()), r -> r.statusCode() == 200
                && generation(r.body()) == 2, "the held file's rewrite is served");
        assertEquals(entry, entry("/q/health/ready", "dra-metadata-present"), "a rewrite of the same size changes no count");
        loggedOnce(entry, 1);

        assertEquals("running", inspect(NAME, "{{.State.Status}}"), logs(NAME));
        assertEquals("false", inspect(NAME, "{{.State.OOMKilled}}"));
        assertEquals(200, status(MANAGEMENT + "/q/health/live"));
        Path cgroup = memoryCgroup(NAME);
        System.out.printf("[image] memory bound at the %s limit: %d files (%d dense) -> %d held (%d dense), %d refused "
                + "(507), %d untracked (404); %s estimated (documented charges: %s) of %s; started UP after %.1f s; "
                + "cgroup memory peak %.1f MiB, rss now %.1f MiB; %d s in all%n", manifestMemoryLimit(), files.size(),
                files.stream().filter(TreeFile::dense).count(), entry.held(),
                byStatus.get(200).stream().filter(TreeFile::dense).count(), entry.refused(), entry.untracked(),
                entry.estimate(), HeldBudget.mib(estimate), entry.bound(), upAfter, memoryPeak(cgroup) / 1048576.0,
                rss(cgroup) / 1048576.0, seconds(started));
    }

    @Test
    void aTreeFarPastTheBoundCostsWhatTheBoundAllowsAndTracksAFoundFileWhenAHeldOneGoes() throws Exception {
        long started = System.nanoTime();
        hugeRoot = FileTrees.temporaryDirectoryOnTmpfs("dra-huge-tree");
        List<TreeFile> huge = OversizedTree.write(hugeRoot, HUGE_CLAIMS);
        FileTrees.makeReadableByAll(hugeRoot);
        runLikePod(NAME, hugeRoot, null);
        double upAfter = awaitStarted(NAME);
        MemoryBoundEntry entry = entry("/q/health/ready", "dra-metadata-present");
        assertEquals(huge.size(), entry.held() + entry.refused() + entry.untracked(), "every file counted: " + entry);
        assertTrue(entry.held() > 0 && entry.untracked() > huge.size() / 2, "most of the tree untracked: " + entry);
        Set<String> tracked = indexed();
        assertEquals(entry.tracked(), tracked.size(), "GET /claims lists the tracked files");
        TreeFile held = huge.stream().filter(f -> tracked.contains(f.apiPath()) && head(API + f.apiPath()) == 200)
                .findFirst().orElseThrow();
        servedWithItsMetadata(held);
        TreeFile untracked = huge.stream().filter(f -> !tracked.contains(f.apiPath())).findFirst().orElseThrow();
        assertEquals(404, head(API + untracked.apiPath()));

        // A held file goes: the walk that notices frees its tracking, and the next one tracks a file it only counted.
        Files.delete(held.path());
        Eventually.await(PROPAGATION, MemoryBoundImageIT::readyEntry,
                after -> after.untracked() == entry.untracked() - 1 && after.tracked() == entry.tracked(),
                "a file found but not tracked is tracked once a held one is gone");
        assertEquals(404, head(API + held.apiPath()), "the deleted file is gone");

        assertEquals("running", inspect(NAME, "{{.State.Status}}"), logs(NAME));
        assertEquals("false", inspect(NAME, "{{.State.OOMKilled}}"));
        List<String> alerting = alertingLines(logs(NAME));
        assertTrue(!alerting.isEmpty() && alerting.stream().allMatch(l -> l.contains("Memory bound reached: ")),
                "only the bound's WARN lines:\n" + String.join("\n", alerting));
        Path cgroup = memoryCgroup(NAME);
        System.out.printf("[image] %d small files at the %s limit: %d held, %d refused (507), %d untracked (404), %s "
                + "estimated of %s; started UP after %.1f s; cgroup memory peak %.1f MiB, rss now %.1f MiB; %d s in "
                + "all%n", huge.size(), manifestMemoryLimit(), entry.held(), entry.refused(), entry.untracked(),
                entry.estimate(), entry.bound(), upAfter, memoryPeak(cgroup) / 1048576.0, rss(cgroup) / 1048576.0,
                seconds(started));
    }

    private static MemoryBoundEntry readyEntry() {
        try {
            return entry("/q/health/ready", "dra-metadata-present");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The {@code memory-bound} entry of a health check's data. */
    private static MemoryBoundEntry entry(String path, String check) throws IOException {
        HttpResponse<String> health = get(MANAGEMENT + path);
        assertEquals(200, health.statusCode(), health.body());
        for (JsonNode node : JSON.readTree(health.body()).get("checks")) {
            if (node.get("name").asText().equals(check)) {
                return MemoryBoundEntry.parse(node.at("/data/memory-bound").asText());
            }
        }
        throw new AssertionError(check + " is not in " + health.body());
    }

    /** Every file of a tree by the status a HEAD of its request answers; fails saying why when none comes. */
    private static Map<Integer, List<TreeFile>> byStatus(List<TreeFile> files) {
        try {
            return files.stream().collect(Collectors.groupingBy(f -> head(API + f.apiPath()), TreeMap::new,
                    Collectors.toList()));
        } catch (IllegalStateException e) {
            throw new AssertionError(NAME + " stopped answering (" + e.getMessage() + "): " + inspect(NAME,
                    "{{.State.Status}}, OOMKilled {{.State.OOMKilled}}, exit code {{.State.ExitCode}}") + "\n"
                    + logs(NAME), e);
        }
    }

    /** The requests {@code GET /claims} lists, as API paths. */
    private static Set<String> indexed() throws IOException {
        Set<String> paths = new HashSet<>();
        for (JsonNode claim : JSON.readTree(get(API + "/claims").body()).get("claims")) {
            claim.get("requests").forEach(r -> paths.add("/claims/" + claim.get("name").asText() + "/" + r.asText()));
        }
        return paths;
    }

    @SafeVarargs
    private static Set<String> paths(List<TreeFile>... lists) {
        Set<String> paths = new HashSet<>();
        for (List<TreeFile> list : lists) {
            list.forEach(f -> paths.add(f.apiPath()));
        }
        return paths;
    }

    /**
     * The counts and estimate agree with docs/operations.md's charges: tracking stops at half of the bound; the
     * estimate is the tracked files' bookkeeping plus each held file's charge; none of the refused files would have
     * fitted. The bound is shown to a tenth of a MiB. @return the estimate computed from the charges
     */
    private static long chargedAsDocumented(MemoryBoundEntry entry, List<TreeFile> held, List<TreeFile> refused)
            throws Exception {
        double bound = entry.boundBytes();
        double rounding = MemoryBoundEntry.ROUNDING;
        long tracking = entry.tracked() * HeldBudget.PER_TRACKED;
        assertTrue(tracking <= (bound + rounding) / 2 && tracking + HeldBudget.PER_TRACKED > (bound - rounding) / 2,
                "tracking stops at half of the bound: " + entry);
        long estimate = tracking;
        for (TreeFile file : held) {
            estimate += file.charge();
        }
        assertEquals(HeldBudget.mib(estimate), entry.estimate(), "the estimate is the documented charges' sum");
        long smallestRefused = Long.MAX_VALUE;
        for (TreeFile file : refused) {
            smallestRefused = Math.min(smallestRefused, file.charge());
        }
        assertTrue(estimate <= bound + rounding && estimate + smallestRefused > bound - rounding,
                "no refused file fits: " + estimate + " + " + smallestRefused + " of " + entry.bound());
        return estimate;
    }

    private static void servedWithItsMetadata(TreeFile file) throws IOException {
        HttpResponse<String> served = get(API + file.driverPath());
        assertEquals(200, served.statusCode(), served.body());
        assertEquals(JSON.readTree(file.served()), JSON.readTree(served.body()), "the file's object is served");
    }

    private static void refusedWithTheBound(TreeFile file, MemoryBoundEntry entry) throws IOException {
        HttpResponse<String> refused = get(API + file.apiPath());
        assertEquals(507, refused.statusCode(), refused.body());
        assertEquals("application/problem+json", refused.headers().firstValue("Content-Type").orElse(""));
        JsonNode problem = JSON.readTree(refused.body());
        assertEquals("memory-bound-reached", problem.get("code").asText(), refused.body());
        String detail = problem.get("detail").asText();
        assertTrue(detail.contains("memory bound of " + entry.bound()) && detail.contains("resources.limits.memory")
                && detail.contains("dra.metadata.max-held"), "the detail names the bound and what to raise: " + detail);
    }

    /**
     * The log says the bound is reached in one WARN line, its only alerting one; the first scan in one summary line,
     * not a line per file; {@code rewrites} files are logged one by one since.
     */
    private static void loggedOnce(MemoryBoundEntry entry, int rewrites) {
        String log = logs(NAME);
        List<String> alerting = alertingLines(log);
        assertEquals(1, alerting.size(), "one WARN line, about the bound:\n" + String.join("\n", alerting));
        assertTrue(alerting.get(0).contains("Memory bound reached: " + entry.held() + " file(s) held"), alerting.get(0));
        assertTrue(log.contains("Read " + entry.tracked() + " new metadata files in "), "the scan's summary:\n" + log);
        assertEquals(rewrites, log.lines().filter(l -> l.contains("-metadata.json: generation")).count(),
                "files logged one by one:\n" + log);
    }

    /**
     * The log's WARN and ERROR lines but the one that says the node's inotify watches ran out (a tree of this size
     * needs more than some nodes' 8192; the sidecar then polls, as documented): that is the host's limit, not this
     * test's subject, and the watch mode in the readiness data says so.
     */
    private static List<String> alertingLines(String log) {
        return CleanLog.alertingLines(log).stream()
                .filter(l -> !(l.contains("File notifications given up") && l.contains("max_user_watches reached")))
                .toList();
    }

    private static long generation(String body) {
        try {
            return JSON.readTree(body).at("/metadata/generation").asLong();
        } catch (IOException e) {
            throw new IllegalStateException(body, e);
        }
    }
}
