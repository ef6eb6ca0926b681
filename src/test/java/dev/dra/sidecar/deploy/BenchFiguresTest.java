package dev.dra.sidecar.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The benchmark figures the documentation reports as current are those of the runs it names: every figure of
 * bench/README.md's "Where each target stands" is in the summary of its run's {@code results/*.md}, and the
 * footprint deploy/kubernetes/README.md sizes the manifests' memory limit from is that table's.
 */
class BenchFiguresTest {

    private static final Path BENCH = Path.of("bench");
    private static final Pattern QUOTED = Pattern.compile("`([^`]+)`");

    /** A row of the table: its figure's name, the figures quoted as the latest, and the run they come from. */
    record Row(String figure, List<String> latest, Path run) {}

    @Test
    void everyCurrentFigureIsInTheSummaryOfItsRun() throws Exception {
        List<Row> rows = currentFigures();
        assertTrue(rows.size() >= 10, "the table of current figures: " + rows);
        for (Row row : rows) {
            assertFalse(row.latest().isEmpty(), row.figure() + ": no figure quoted");
            String run = Files.readString(row.run());
            String summary = run.substring(run.indexOf("## Summary"), run.indexOf("## Details"));
            for (String figure : row.latest()) {
                assertTrue(summary.contains(figure), row.figure() + ": " + figure + " is not in the summary of " + row.run());
            }
        }
    }

    @Test
    void theManifestsMemoryLimitFollowsTheCurrentFootprint() throws Exception {
        Row memory = currentFigures().stream().filter(r -> r.figure().startsWith("image: cgroup `rss` after warm-up"))
                .findFirst().orElseThrow();
        Matcher figures = Pattern.compile("([0-9.]+) / ([0-9.]+) MiB").matcher(memory.latest().get(0));
        assertTrue(figures.matches(), memory.toString());
        String deploy = Files.readString(Path.of("deploy", "kubernetes", "README.md")).replaceAll("\\s+", " ");
        assertTrue(deploy.contains(figures.group(1) + " MiB charged to the container after warm-up"), "after warm-up");
        assertTrue(deploy.contains(figures.group(2) + " MiB at the worst load a local client can make"), "worst local load");
    }

    private static List<Row> currentFigures() throws Exception {
        String readme = Files.readString(BENCH.resolve("README.md"));
        int from = readme.indexOf("### Where each target stands");
        assertTrue(from >= 0, "bench/README.md has the table of current figures");
        String section = readme.substring(from, readme.indexOf("\n### ", from + 1));
        List<Row> rows = new ArrayList<>();
        for (String line : section.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| Figure ")).toList()) {
            String[] cells = line.split(" \\| ");
            assertEquals(5, cells.length, line);
            List<String> latest = new ArrayList<>();
            Matcher quoted = QUOTED.matcher(cells[2]);
            while (quoted.find()) {
                if (!quoted.group(1).startsWith("results/")) {
                    latest.add(quoted.group(1));
                }
            }
            Matcher run = QUOTED.matcher(cells[3]);
            assertTrue(run.matches() && run.group(1).startsWith("results/"), line);
            Path file = BENCH.resolve(run.group(1));
            assertTrue(Files.isRegularFile(file), file + " exists");
            rows.add(new Row(cells[0].substring(2), latest, file));
        }
        return rows;
    }
}
