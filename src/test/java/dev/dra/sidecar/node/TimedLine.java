package dev.dra.sidecar.node;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.opentest4j.AssertionFailedError;

/** A container's log line and the time the runtime took it (the CRI timestamp kubelet gives with the line). */
record TimedLine(Instant time, String text) {

    /**
     * The lines that are not blank of a log read with timestamps; fails naming kubelet's answer when it is not
     * such a log (kubelet answers "unable to retrieve container logs ..." once the container is gone).
     */
    static List<TimedLine> parse(String text) {
        List<TimedLine> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            int space = line.indexOf(' ');
            if (line.isBlank() || space > 0 && line.substring(space + 1).isBlank()) {
                continue;
            }
            try {
                lines.add(new TimedLine(Instant.parse(line.substring(0, Math.max(space, 0))), line.substring(space + 1)));
            } catch (DateTimeException e) {
                throw new AssertionFailedError("kubelet did not answer with the container's log: " + text);
            }
        }
        return lines;
    }
}
