package dev.dra.sidecar.decode.goyaml;

/**
 * What apimachinery's YAML path makes of a stream value that is not an object. Its universal deserializer
 * hands a value that does not start with {@code {} to the YAML serializer, which converts it with
 * {@code sigs.k8s.io/yaml} ({@code go.yaml.in/yaml/v2}) before reading its kind. So a string, number, literal
 * or array is first read as YAML, and YAML refuses some JSON:
 * <ul>
 * <li>its reader decodes the bytes as UTF-8 and refuses malformed sequences, surrogates and characters outside
 *     its printable set (C0 and C1 controls but tab, line feed, carriage return and NEL; DEL; U+FFFE, U+FFFF)
 *     in {@value GoYamlReader#RAW_SIZE}-byte chunks ahead of the scanner;
 * <li>its scanner and parser refuse some escapes, breaks and long keys ({@link GoYamlScanner} lists the rules),
 *     once the reader has decoded as far as they looked;
 * <li>a number beyond float64 ({@code 1e400}) resolves as a string;
 * <li>an array holding U+FEFF may lose characters: go-yaml's {@code is_bom} tests its buffer's head, not the
 *     cursor, so once its reader has refilled with the cursor on a BOM, each character at column 0 between
 *     tokens is skipped, whatever it is, until the next refill. Such an array is read by a port of go-yaml's
 *     reader, scanner, parser and decoder ({@link GoYamlReader}, {@link GoYamlTokens}, {@link GoYamlScalars},
 *     {@link GoYamlEvents}, {@link GoYamlTree}, with {@code sigs.k8s.io/yaml}'s conversion, {@link GoYamlJson});
 *     what the port does not model ({@link GoYamlTokens.Unsupported}) is answered by the rules above.
 * </ul>
 */
public final class GoYamlPath {

    private GoYamlPath() {}

    /**
     * Reads the value in {@code b[start, end)} (a complete, syntactically valid JSON value that is not an object).
     *
     * @return Go's error ({@code yaml: ...}, or {@code json: unsupported value: ...} for a float the port read
     *     that JSON cannot hold), or {@code null} when YAML reads it
     */
    public static String error(byte[] b, int start, int end) {
        if (b[start] == '[' && holdsBom(b, start, end)) {
            try {
                GoYamlTree.decode(new GoYamlEvents(new GoYamlTokens(new GoYamlReader(b, start, end))));
                return null;
            } catch (GoYamlError e) {
                return e.getMessage();
            } catch (GoYamlTokens.Unsupported | StackOverflowError e) {
                // beyond the port (or nested deeper than this thread's stack holds): the rules, which ignore the BOM
            }
        }
        return rules(b, start, end);
    }

    /** Whether U+FEFF occurs in {@code b[start, end)}: only then can go-yaml's buffer head be one. */
    private static boolean holdsBom(byte[] b, int start, int end) {
        for (int i = start; i + 2 < end; i++) {
            if (b[i] == (byte) 0xEF && b[i + 1] == (byte) 0xBB && b[i + 2] == (byte) 0xBF) {
                return true;
            }
        }
        return false;
    }

    private static String rules(byte[] b, int start, int end) {
        int[] reader = readerError(b, start, end);
        GoYamlScanner.Problem scanner = GoYamlScanner.firstProblem(b, start, reader == null ? end : reader[0], end);
        if (scanner != null && (reader == null || chunk(reader[0], start) > chunk(scanner.decodedTo() - 1, start))) {
            return "yaml: " + scanner.message();
        }
        return reader == null ? null : "yaml: " + GoYamlReader.problem(reader[1]);
    }

    /** Whether YAML reads the JSON number in {@code b[start, end)} as a string: it does not fit a float64. */
    public static boolean isNumberReadAsString(byte[] b, int start, int end) {
        return Double.isInfinite(Double.parseDouble(new String(b, start, end - start, java.nio.charset.StandardCharsets.US_ASCII)));
    }

    private static int chunk(int at, int start) {
        return (at - start) / GoYamlReader.RAW_SIZE;
    }

    /** go-yaml's reader over the value: {offset, problem} of its first error, or null. */
    private static int[] readerError(byte[] b, int start, int end) {
        for (int i = start; i < end; ) {
            int width = GoYamlReader.decode(b, i, end);
            if (width <= 0) {
                return new int[] {i, width == 0 ? 1 : -1 - width};
            }
            i += width;
        }
        return null;
    }
}
