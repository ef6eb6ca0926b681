package dev.dra.sidecar.decode;

/**
 * The decoder and validator as a Jazzer fuzz target ({@code src/test/jazzer/fuzz.sh}): libFuzzer keeps every
 * input that reaches new code in them and mutates it further; the inputs it keeps form the corpus
 * {@code fixtures/oracle-corpus}, which {@code GoOracleDifferentialIT} replays against the Go reader every
 * run. A stream must decode or fail with a {@link MetadataDecodeException}: anything else thrown is a crash
 * that libFuzzer reports.
 */
public final class DecoderFuzzTarget {

    private DecoderFuzzTarget() {}

    /** Called by Jazzer once before fuzzing: class loading and instrumentation are not what the timeout bounds. */
    public static void fuzzerInitialize() {
        fuzzerTestOneInput(TestStreams.utf8(TestStreams.BETA + ",\"metadata\":{\"creationTimestamp\":\"2024-01-01T00:00:00Z\"},"
                + "\"requests\":[{\"name\":\"r\",\"devices\":[{\"driver\":\"d\",\"pool\":\"p\",\"name\":\"n\"}]}]}"));
        fuzzerTestOneInput(TestStreams.utf8("[1, \"x\", {\"a\":1e400}]"));
    }

    public static void fuzzerTestOneInput(byte[] stream) {
        try {
            MetadataValidator.validate(MetadataStreamDecoder.decode(stream, "fuzz.json").object());
        } catch (MetadataDecodeException expected) {
            // a coded failure is an answer
        }
    }
}
