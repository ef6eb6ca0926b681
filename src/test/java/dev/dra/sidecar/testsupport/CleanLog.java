package dev.dra.sidecar.testsupport;

import java.util.List;
import java.util.regex.Pattern;

/**
 * What a log says that an operator would be alerted by: every line at level WARN or ERROR, in the console's plain
 * format ({@code 2026-12-01 12:00:00,000 WARN  [category] ...}) or its JSON one ({@code "level":"WARN"}), and every
 * line the JVM itself writes as a warning or error ({@code WARNING: ...}, {@code OpenJDK 64-Bit Server VM
 * warning: ...}, {@code [warning][aot] ...}, {@code Error: ...}).
 */
public final class CleanLog {

    private static final Pattern ALERTING = Pattern.compile(
            "^\\S+ \\S+ (WARN|ERROR|FATAL) " // the plain console format
                    + "|\"level\"\\s*:\\s*\"(WARN|WARNING|ERROR|FATAL)\"" // the JSON console format
                    + "|^(WARNING|ERROR|Error|SEVERE):|VM warning:" // the JVM's and the JDK's own
                    + "|\\[(warning|error)\\]"); // unified JVM logging (-Xlog)

    private CleanLog() {}

    /** The lines of {@code log} at WARN or ERROR; empty for a clean log. */
    public static List<String> alertingLines(String log) {
        return log.lines().filter(line -> ALERTING.matcher(line).find()).toList();
    }
}
