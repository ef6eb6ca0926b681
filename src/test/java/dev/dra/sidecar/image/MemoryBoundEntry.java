package dev.dra.sidecar.image;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code memory-bound} entry of the readiness and startup checks' data, as a person reads it: once the bound is
 * reached {@code reached: <held> file(s) held, <estimate> estimated of <bound> (<source>); <refused> file(s) not
 * held answer memory-bound-reached, <untracked> more not even tracked: raise ...}, else {@code <held> file(s) held,
 * <estimate> estimated of <bound> (<source>)} (none refused, no remedy).
 *
 * @param estimate what the held and tracked files are charged, as shown ({@code 9.9 MiB})
 * @param bound the bound, as shown ({@code 19.7 MiB})
 * @param remedy what the entry says to raise
 */
record MemoryBoundEntry(int held, String estimate, String bound, String boundSource, int refused, int untracked,
        String remedy) {

    private static final Pattern REACHED = Pattern.compile("reached: (\\d+) file\\(s\\) held, (\\S+ MiB) estimated of "
            + "(\\S+ MiB) \\((.+)\\); (\\d+) file\\(s\\) not held answer memory-bound-reached, (\\d+) more not even "
            + "tracked: (.+)");

    private static final Pattern HOLDING = Pattern.compile("(\\d+) file\\(s\\) held, (\\S+ MiB) estimated of "
            + "(\\S+ MiB) \\((.+)\\)");

    /** A MiB as the entry shows it is rounded to a tenth: the true value is within this many bytes of it. */
    static final double ROUNDING = 0.05 * 1024 * 1024;

    static MemoryBoundEntry parse(String entry) {
        Matcher holding = HOLDING.matcher(entry);
        if (holding.matches()) {
            return new MemoryBoundEntry(Integer.parseInt(holding.group(1)), holding.group(2), holding.group(3),
                    holding.group(4), 0, 0, null);
        }
        Matcher m = REACHED.matcher(entry);
        assertTrue(m.matches(), "a memory-bound entry: " + entry);
        return new MemoryBoundEntry(Integer.parseInt(m.group(1)), m.group(2), m.group(3), m.group(4),
                Integer.parseInt(m.group(5)), Integer.parseInt(m.group(6)), m.group(7));
    }

    /** Files the sidecar tracks: held or refused. */
    int tracked() {
        return held + refused;
    }

    /** The bound in bytes, to within {@link #ROUNDING}. */
    double boundBytes() {
        return Double.parseDouble(bound.replace(" MiB", "")) * 1024 * 1024;
    }
}
