package dev.dra.sidecar.testsupport;

import java.security.SecureRandom;

/**
 * The seed of a test that generates its cases. A build runs each such test with its fixed default seed, so that
 * its verdict depends on the code and never on chance; {@code -D<property>=<seed>} replays a run, and
 * {@code -D<property>=random} draws a fresh seed (printed by the test) for a run that explores.
 */
public final class Seeds {

    private Seeds() {}

    /** The seed {@code property} names: its number, a fresh one for {@code random}, else {@code fixed}. */
    public static long of(String property, long fixed) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            return fixed;
        }
        return value.equals("random") ? new SecureRandom().nextLong() : Long.parseLong(value.trim());
    }
}
