package dev.dra.sidecar.decode;

/**
 * What apimachinery's YAML path makes of a stream value that is not an object. Its universal deserializer
 * hands a value that does not start with {@code {} to the YAML serializer, which converts it with
 * {@code sigs.k8s.io/yaml} ({@code go.yaml.in/yaml/v2}) before reading its kind. So a string, number, literal
 * or array is first read as YAML, and YAML refuses some JSON:
 * <ul>
 * <li>its reader decodes the bytes as UTF-8 and refuses malformed sequences, surrogates and characters outside
 *     its printable set (C0 and C1 controls but tab, line feed, carriage return and NEL; DEL; U+FFFE, U+FFFF)
 *     in {@value #READER_CHUNK}-byte chunks ahead of the scanner;
 * <li>its scanner and parser refuse some escapes, breaks and long keys ({@link GoYamlScanner} lists the rules),
 *     once the reader has decoded as far as they looked;
 * <li>a number beyond float64 ({@code 1e400}) resolves as a string.
 * </ul>
 */
final class GoYamlPath {

    /** go-yaml's {@code input_raw_buffer_size}: how many bytes its reader decodes at a time. */
    private static final int READER_CHUNK = 512;

    private GoYamlPath() {}

    /**
     * Reads the value in {@code b[start, end)} (a complete, syntactically valid JSON value that is not an object).
     *
     * @return Go's YAML error ({@code yaml: ...}), or {@code null} when YAML reads it
     */
    static String error(byte[] b, int start, int end) {
        if (b[start] == '[' && holdsBom(b, start, end)) {
            try {
                GoYamlTree.decode(new GoYamlEvents(new GoYamlTokens(new GoYamlReader(b, start, end))));
                return null;
            } catch (GoYamlError e) {
                return e.getMessage();
            } catch (GoYamlTokens.Unsupported e) {
                // what the port does not model: the rules below, which ignore the BOM
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
        return reader == null ? null : "yaml: " + READER_PROBLEMS[reader[1]];
    }

    /** Whether YAML reads this JSON number as a string: it does not fit a float64. */
    static boolean isNumberReadAsString(byte[] b, int start, int end) {
        return Double.isInfinite(Double.parseDouble(new String(b, start, end - start, java.nio.charset.StandardCharsets.US_ASCII)));
    }

    private static int chunk(int at, int start) {
        return (at - start) / READER_CHUNK;
    }

    private static final String[] READER_PROBLEMS = {"invalid leading UTF-8 octet", "incomplete UTF-8 octet sequence",
        "invalid trailing UTF-8 octet", "invalid length of a UTF-8 sequence", "invalid Unicode character",
        "control characters are not allowed"};

    /** go-yaml's reader over the value: {offset, problem index} of its first error, or null. */
    private static int[] readerError(byte[] b, int start, int end) {
        int i = start;
        while (i < end) {
            int octet = b[i] & 0xFF;
            int width = (octet & 0x80) == 0 ? 1 : (octet & 0xE0) == 0xC0 ? 2 : (octet & 0xF0) == 0xE0 ? 3
                    : (octet & 0xF8) == 0xF0 ? 4 : 0;
            if (width == 0) {
                return new int[] {i, 0};
            }
            if (width > end - i) {
                return new int[] {i, 1};
            }
            int value = width == 1 ? octet : octet & (0xFF >> (width + 1));
            for (int k = 1; k < width; k++) {
                int trailing = b[i + k] & 0xFF;
                if ((trailing & 0xC0) != 0x80) {
                    return new int[] {i, 2};
                }
                value = (value << 6) + (trailing & 0x3F);
            }
            if (width == 2 && value < 0x80 || width == 3 && value < 0x800 || width == 4 && value < 0x10000) {
                return new int[] {i, 3};
            }
            if (value >= 0xD800 && value <= 0xDFFF || value > 0x10FFFF) {
                return new int[] {i, 4};
            }
            if (!isPrintable(value)) {
                return new int[] {i, 5};
            }
            i += width;
        }
        return null;
    }

    private static boolean isPrintable(int c) {
        return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) || c == 0x85
                || (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
    }
}
