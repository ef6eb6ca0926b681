package dev.dra.sidecar.decode.goyaml;

/**
 * An error of go-yaml v2's reader, scanner, parser or decoder, worded as {@code yaml.Unmarshal} returns it
 * ({@code yaml: } and the rest): {@code parser.fail} in {@code decode.go} prefixes {@code line N: } with the problem's
 * line (plus one for a scanner error) when that is not 0, else the context's line when that is not 0; a reader
 * error has neither; a decoder error ({@code failf}) is its words alone.
 */
final class GoYamlError extends RuntimeException {

    /** A position: characters from the start, and the 0-based line and column ({@code yaml_mark_t}). */
    record Mark(int index, int line, int column) {}

    private GoYamlError(String message) {
        super(message, null, false, false);
    }

    static GoYamlError reader(String problem) {
        return new GoYamlError("yaml: " + problem);
    }

    static GoYamlError scanner(String problem, Mark problemMark) {
        return new GoYamlError("yaml: " + where(problemMark.line() + (problemMark.line() != 0 ? 1 : 0), 0) + problem);
    }

    static GoYamlError parser(String problem, Mark problemMark, Mark contextMark) {
        return new GoYamlError("yaml: " + where(problemMark.line(), contextMark == null ? 0 : contextMark.line()) + problem);
    }

    static GoYamlError decoder(String message) {
        return new GoYamlError("yaml: " + message);
    }

    /** An error of {@code json.Marshal} on the decoded value ({@link GoYamlJson}), worded as it is. */
    static GoYamlError json(String message) {
        return new GoYamlError(message);
    }

    private static String where(int problemLine, int contextLine) {
        int line = problemLine != 0 ? problemLine : contextLine;
        return line != 0 ? "line " + line + ": " : "";
    }
}
