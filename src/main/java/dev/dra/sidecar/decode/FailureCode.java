package dev.dra.sidecar.decode;

/**
 * Why a file could not be decoded: its machine-readable {@code code} and whether a retry may help (a driver
 * rewriting a file in place leaves it empty or cut short for a moment). The HTTP API answers each with a problem
 * of the same code ({@code dev.dra.sidecar.api.problem.ProblemType}).
 */
public enum FailureCode {
    NO_METADATA_OBJECTS("no-metadata-objects", true),
    MALFORMED_STREAM("malformed-stream", true),
    INVALID_OBJECT("invalid-object", false),
    NO_COMPATIBLE_VERSION("no-compatible-version", false),
    FILE_TOO_LARGE("file-too-large", false),
    /**
     * The file decoded, but holding it would take the sidecar past its memory bound ({@code dra.metadata.max-held}):
     * it is not held, and no retry helps until files are removed or the bound is raised.
     */
    MEMORY_BOUND_REACHED("memory-bound-reached", false),
    /** The file could not be opened or read at all (permissions, I/O error). */
    UNREADABLE("unreadable", true);

    private final String code;
    private final boolean transientFailure;

    FailureCode(String code, boolean transientFailure) {
        this.code = code;
        this.transientFailure = transientFailure;
    }

    public String code() {
        return code;
    }

    /** A failure a driver's in-progress write can cause; worth a retry and a {@code Retry-After}. */
    public boolean isTransient() {
        return transientFailure;
    }
}
