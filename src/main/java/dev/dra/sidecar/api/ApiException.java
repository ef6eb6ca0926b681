package dev.dra.sidecar.api;

import dev.dra.sidecar.snapshot.Served;

/**
 * A client-facing failure: {@link ProblemMappers} answers it as a problem body of its {@link ProblemType}, with
 * {@code Retry-After} when the type is retryable; never as a 500.
 */
final class ApiException extends RuntimeException {

    private final ProblemType type;

    ApiException(ProblemType type, String detail) {
        super(detail, null, false, false);
        this.type = type;
    }

    ProblemType type() {
        return type;
    }

    /** The problem of a file (or request) the snapshot cannot serve: its type and the snapshot's detail. */
    static ApiException unavailable(Served.Unavailable failure) {
        return new ApiException(ProblemType.of(failure.code()), failure.detail());
    }

    Problem problem() {
        return type.problem(getMessage());
    }
}
