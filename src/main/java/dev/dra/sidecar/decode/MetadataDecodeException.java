package dev.dra.sidecar.decode;

/** A file or stream that does not decode, with the code a client can act on. */
public final class MetadataDecodeException extends Exception {

    private final FailureCode code;

    public MetadataDecodeException(FailureCode code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    public FailureCode code() {
        return code;
    }
}
