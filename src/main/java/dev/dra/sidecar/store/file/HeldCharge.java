package dev.dra.sidecar.store.file;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import dev.dra.sidecar.model.DeviceMetadata;
import java.io.IOException;

/**
 * What holding a decoded object is charged against the memory bound ({@link HeldBudget}): an upper estimate of the
 * heap it takes while served (its decoded model and its devices' entries; bodies are encoded from it when asked for,
 * and their last encoding is kept only until memory is needed),
 * from its compact JSON encoding: {@link #PER_FILE}, plus {@link #PER_BODY_BYTE} per byte of that encoding, plus
 * {@link #PER_TOKEN} per JSON token of it (names, values, brackets). Heap goes by decoded value, not by file byte: a
 * file of many small attributes takes several times the heap of a file of the same size with one long string, and
 * whitespace or a second apiVersion in the file take none.
 *
 * <p>The constants are above what a JVM's heap takes for each shape of file that {@code HeldChargeMeasurement} (in
 * the tests) holds: few or many devices, attributes of every kind, long strings of one or two bytes per character.
 */
public final class HeldCharge {

    /** What a held object costs besides its bytes and tokens: the records' fixed part. */
    public static final long PER_FILE = 512;

    /** Per byte of the encoding: once at most in the decoded strings. */
    public static final long PER_BODY_BYTE = 1;

    /** Per JSON token of the encoding: the record, map entry, list slot, boxed number or string object behind it. */
    public static final long PER_TOKEN = 24;

    private static final ObjectWriter WRITER = GoCompatibleJson.mapper().writer();
    private static final JsonFactory FACTORY = GoCompatibleJson.mapper().getFactory();

    private HeldCharge() {}

    /** The charge of holding {@code object}. */
    public static long of(DeviceMetadata object) {
        try {
            byte[] body = WRITER.writeValueAsBytes(object);
            return PER_FILE + PER_BODY_BYTE * body.length + PER_TOKEN * tokens(body);
        } catch (IOException e) {
            throw new IllegalStateException("a decoded object always encodes", e);
        }
    }

    /**
     * The JSON tokens of {@code body}; its length when Jackson's parser refuses it (Go's decoder keeps what Jackson's
     * parser does not take back, such as a lone surrogate escape in a key of {@code fieldsV1}): every token takes at
     * least a byte, so the charge stays an upper estimate.
     */
    private static long tokens(byte[] body) {
        long tokens = 0;
        try (JsonParser parser = FACTORY.createParser(body)) {
            while (parser.nextToken() != null) {
                tokens++;
            }
            return tokens;
        } catch (IOException e) {
            return body.length;
        }
    }
}
