package dev.dra.sidecar.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.testsupport.Seeds;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Properties over seeded random cases (no property-testing library: jqwik does not run on this JUnit
 * platform). A build runs seed 1; {@code -Ddecoder.seed=N} replays another, {@code -Ddecoder.seed=random} draws
 * a fresh one; a failure prints its seed.
 */
class DecoderPropertyTest {

    private static final int ROUND_TRIP_CASES = 400;
    private static final int MUTATION_CASES = 400;
    private static final Duration BOUND = Duration.ofSeconds(2);

    private static long seed() {
        return Seeds.of("decoder.seed", 1);
    }

    private static String show(byte[] bytes) {
        String s = new String(bytes, 0, Math.min(bytes.length, 600), StandardCharsets.UTF_8);
        return s.replace("\n", "\\n") + (bytes.length > 600 ? "... (" + bytes.length + " bytes)" : "");
    }

    @Test
    void decodingAnEncodedStreamGivesBackTheFirstKnownVersionOfTheObject() throws Exception {
        long seed = seed();
        RandomMetadata gen = new RandomMetadata(new Random(seed));
        for (int i = 0; i < ROUND_TRIP_CASES; i++) {
            DeviceMetadata object = gen.object();
            RandomMetadata.Stream stream = gen.stream(object);
            String where = "seed=" + seed + " case=" + i + " stream=" + show(stream.bytes());
            assertEquals(List.of(), MetadataValidator.validate(object), () -> "generator made an invalid object, " + where);
            DecodedMetadata decoded;
            try {
                decoded = MetadataStreamDecoder.decode(stream.bytes(), "random.json");
            } catch (MetadataDecodeException e) {
                fail(e.code().code() + ": " + e.getMessage() + "\n" + where);
                return;
            }
            assertEquals(stream.firstKnown(), decoded.sourceVersion(), where);
            assertEquals(stream.skipped(), decoded.skippedVersions(), where);
            DeviceMetadata expected = object.withApiVersion(stream.firstKnown());
            if (!expected.equals(decoded.object())) {
                var json = GoCompatibleJson.mapper();
                fail("decoded object differs at " + TestStreams.firstDifference(json.valueToTree(expected),
                        json.valueToTree(decoded.object()), "") + "\n" + where);
            }
        }
    }

    @Test
    void mutatedStreamsOnlyDecodeOrFailWithACode() throws Exception {
        long seed = seed();
        RandomMetadata gen = new RandomMetadata(new Random(seed));
        int decodedCount = 0;
        for (int i = 0; i < MUTATION_CASES; i++) {
            byte[] bytes = gen.stream(gen.object()).bytes();
            int edits = 1 + gen.random.nextInt(4);
            for (int e = 0; e < edits; e++) {
                bytes = gen.mutate(bytes);
            }
            byte[] input = bytes;
            String where = "seed=" + seed + " case=" + i + " input=" + show(input);
            DecodedMetadata result = assertTimeoutPreemptively(BOUND, () -> decodeOrNull(input, where), where);
            if (result != null) {
                decodedCount++;
                // whatever decodes can be validated and served, and serving it loses nothing
                MetadataValidator.validate(result.object());
                byte[] encoded = GoCompatibleJson.mapper().writeValueAsBytes(result.object());
                assertEquals(result.object(), MetadataStreamDecoder.decode(encoded, "re-encoded").object(), where);
            }
        }
        // the mutations must leave some streams decodable, or this tests only the failure path
        int decoded = decodedCount;
        org.junit.jupiter.api.Assertions.assertTrue(decoded > MUTATION_CASES / 10, () -> "only " + decoded + " decoded");
    }

    /** The decode result, null for a coded failure; any other throwable fails the test with the input. */
    static DecodedMetadata decodeOrNull(byte[] input, String where) {
        try {
            return MetadataStreamDecoder.decode(input, "mutated.json");
        } catch (MetadataDecodeException e) {
            if (e.code() == null || e.getMessage() == null) {
                fail("failure without code or message, " + where);
            }
            return null;
        } catch (Throwable t) {
            throw new AssertionError("unexpected " + t + "\n" + where, t);
        }
    }
}
