package dev.dra.sidecar.decode;

/** A file or stream that does not decode, with the code a client can act on. */
public final class MetadataDecodeException extends Exception {

    /** What a message quotes (of the file, or of a parser's words) is cut to this many characters. */
    static final int MAX_MESSAGE = 500;

    private final FailureCode code;

    public MetadataDecodeException(FailureCode code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    public FailureCode code() {
        return code;
    }
}
