package dev.dra.sidecar.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Names that take the Go reader very long (a pool of tens of thousands of {@code /} takes it tens of seconds and
 * gigabytes to validate: one error per segment, each quoting the whole value) take the sidecar little time and a
 * report of bounded size, up to the 1 MiB file size limit: segments past {@link MetadataValidator#MAX_POOL_SEGMENTS}
 * are reported as one violation.
 */
class HostileNamesTest {

    private static final int MIB = 1 << 20;
    private static final Duration BOUND = Duration.ofSeconds(5);

    @Test
    void aPoolOfSlashesGivesABoundedReportQuickly() {
        List<Violation> violations = validate("\"driver\":\"d\",\"pool\":\"" + "/".repeat(MIB - 200) + "\",\"name\":\"n\"");
        assertEquals(1 + MetadataValidator.MAX_POOL_SEGMENTS + 1, violations.size()); // TooLong, the segments, the rest
        assertEquals("TooLong", violations.get(0).type());
        assertEquals(MetadataValidator.POOL_SEGMENTS_NOT_EXAMINED, violations.get(violations.size() - 1).message());
    }

    @Test
    void aPoolOfShortSegmentsIsBoundedToo() {
        List<Violation> violations = validate("\"driver\":\"d\",\"pool\":\"" + "A/".repeat(MIB / 2 - 200) + "\",\"name\":\"n\"");
        assertEquals(1 + MetadataValidator.MAX_POOL_SEGMENTS + 1, violations.size());
    }

    @Test
    void megabyteNamesOfEveryKindValidateQuickly() {
        for (String name : List.of("a.".repeat(MIB / 2 - 200) + "a", "a-".repeat(MIB / 2 - 200) + "-", "a".repeat(MIB - 200),
                "\u212A.".repeat(MIB / 4 - 200) + "\u212A")) {
            List<Violation> violations = validate("\"driver\":\"" + name + "\",\"pool\":\"" + name + "\",\"name\":\"" + name + "\"");
            assertTrue(violations.size() <= 8, violations::toString);
        }
    }

    private static List<Violation> validate(String device) {
        byte[] stream = (TestStreams.BETA + ",\"requests\":[{\"name\":\"r\",\"devices\":[{" + device + "}]}]}")
                .getBytes(StandardCharsets.UTF_8);
        return assertTimeoutPreemptively(BOUND, () -> MetadataValidator.validate(
                MetadataStreamDecoder.decode(stream, "test.json").object()));
    }
}
