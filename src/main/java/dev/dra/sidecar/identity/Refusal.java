package dev.dra.sidecar.identity;

/** Why a caller is refused; the API answers each reason with its own problem code. */
public final class Refusal extends RuntimeException {

    public enum Reason {
        /** No {@code Authorization: Bearer} token. */
        MISSING_TOKEN,
        /** The TokenReview does not authenticate the token for the audience, or it is bound to no pod. */
        INVALID_TOKEN,
        /** The token's pod is not on this node, or is gone (another UID has its name, or none). */
        POD_NOT_ON_NODE,
        /** The connection does not come from the token's pod's own address. */
        PEER_NOT_ALLOWED,
        /** The API server cannot be asked now. */
        UNAVAILABLE
    }

    private final Reason reason;

    public Refusal(Reason reason, String detail) {
        super(detail, null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
