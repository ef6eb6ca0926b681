package dev.dra.sidecar.api;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the API's tests read of the management interface's metrics. */
final class ApiMetrics {

    private ApiMetrics() {}

    /** The value of the unlabelled sample {@code name} in the Prometheus text {@code exposition}; it must be there. */
    static double counter(String exposition, String name) {
        Matcher sample = Pattern.compile("(?m)^" + Pattern.quote(name) + " (\\S+)$").matcher(exposition);
        assertTrue(sample.find(), name + " is exposed");
        return Double.parseDouble(sample.group(1));
    }
}
