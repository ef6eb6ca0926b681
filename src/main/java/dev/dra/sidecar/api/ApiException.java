package dev.dra.sidecar.api;

/** A client-facing failure: answered as a problem body with its status and code, never as a 500. */
final class ApiException extends RuntimeException {

    private final Problem problem;
    private final Integer retryAfterSeconds;

    ApiException(int status, String code, String title, String detail) {
        this(Problem.of(status, code, title, detail), null);
    }

    ApiException(Problem problem, Integer retryAfterSeconds) {
        super(problem.detail(), null, false, false);
        this.problem = problem;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    Problem problem() {
        return problem;
    }

    Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }

    static ApiException notFound(String detail) {
        return new ApiException(404, "not-found", "Not found", detail);
    }

    static ApiException invalidName(String detail) {
        return new ApiException(400, "invalid-name", "Invalid name", detail);
    }

    static ApiException invalidParameter(String detail) {
        return new ApiException(400, "invalid-parameter", "Invalid parameter", detail);
    }
}
