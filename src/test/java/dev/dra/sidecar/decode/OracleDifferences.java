package dev.dra.sidecar.decode;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The differences from the Go reader that one differential run found: counted, the first {@value #REPORTED} kept in
 * full, and the run failed with the seed and case count that reproduce it.
 */
final class OracleDifferences {

    private static final int REPORTED = 20;

    private final String kind;
    private final long seed;
    private final int cases;
    private final List<String> reported = new ArrayList<>();
    private int count;

    /**
     * @param kind what the run compares, as its summary names it ({@code stream}, {@code corpus}, {@code tree})
     * @param seed the run's seed, {@code -Ddra.oracle.seed}
     * @param cases the run's case count, {@code -Ddra.oracle.cases}
     */
    OracleDifferences(String kind, long seed, int cases) {
        this.kind = kind;
        this.seed = seed;
        this.cases = cases;
    }

    void add(Object caseNumber, String difference) {
        count++;
        if (reported.size() < REPORTED) {
            reported.add("case " + caseNumber + ": " + difference);
        }
    }

    /** Prints the run's summary and fails it when any case differed. */
    void assertNone(int compared, long startedNanos) {
        long seconds = Duration.ofNanos(System.nanoTime() - startedNanos).toSeconds();
        System.out.println("GoOracleDifferentialIT: " + compared + " " + kind + " cases in " + seconds + " s, " + count
                + " differences (seed " + seed + ")");
        assertTrue(count == 0, () -> count + " of " + compared + " " + kind + " cases differ from Go (seed " + seed
                + ", -Ddra.oracle.seed=" + seed + " -Ddra.oracle.cases=" + cases + " reproduces):\n"
                + String.join("\n\n", reported));
    }
}
