package dev.dra.sidecar.api.problem;

import dev.dra.sidecar.snapshot.Served;

/**
 * A client-facing failure: the resources' exception mappers answer it as a problem body of its {@link ProblemType},
 * with {@code Retry-After} when the type is retryable; never as a 500.
 */
public final class ApiException extends RuntimeException {

    private final ProblemType type;

    public ApiException(ProblemType type, String detail) {
        super(detail, null, false, false);
        this.type = type;
    }

    public ProblemType type() {
        return type;
    }

    /** The problem of a file (or request) the snapshot cannot serve: its type and the snapshot's detail. */
    public static ApiException unavailable(Served.Unavailable failure) {
        return new ApiException(ProblemType.of(failure.code()), failure.detail());
    }
}
