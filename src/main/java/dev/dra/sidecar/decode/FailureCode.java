package dev.dra.sidecar.decode;

/**
 * Why a file could not be decoded: the machine-readable {@code code} of the HTTP contract, the status it is
 * served with, and whether a retry may help (a driver rewriting a file in place leaves it empty or cut short
 * for a moment).
 */
public enum FailureCode {
    NO_METADATA_OBJECTS("no-metadata-objects", 503, true),
    MALFORMED_STREAM("malformed-stream", 503, true),
    INVALID_OBJECT("invalid-object", 502, false),
    NO_COMPATIBLE_VERSION("no-compatible-version", 502, false),
    FILE_TOO_LARGE("file-too-large", 502, false),
    /** The file could not be opened or read at all (permissions, I/O error). */
    UNREADABLE("unreadable", 503, true);

    private final String code;
    private final int httpStatus;
    private final boolean transientFailure;

    FailureCode(String code, int httpStatus, boolean transientFailure) {
        this.code = code;
        this.httpStatus = httpStatus;
        this.transientFailure = transientFailure;
    }

    public String code() {
        return code;
    }

    public int httpStatus() {
        return httpStatus;
    }

    /** A failure a driver's in-progress write can cause; worth a retry and a {@code Retry-After}. */
    public boolean isTransient() {
        return transientFailure;
    }
}
