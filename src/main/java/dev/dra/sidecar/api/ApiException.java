package dev.dra.sidecar.api;

/** A client-facing failure: answered as a problem body with its status and code, never as a 500. */
final class ApiException extends RuntimeException {

    private final Problem problem;
    private final Integer retryAfterSeconds;
    private final boolean closeConnection;

    ApiException(int status, String code, String title, String detail) {
        this(Problem.of(status, code, title, detail), null);
    }

    ApiException(Problem problem, Integer retryAfterSeconds) {
        this(problem, retryAfterSeconds, false);
    }

    private ApiException(Problem problem, Integer retryAfterSeconds, boolean closeConnection) {
        super(problem.detail(), null, false, false);
        this.problem = problem;
        this.retryAfterSeconds = retryAfterSeconds;
        this.closeConnection = closeConnection;
    }

    Problem problem() {
        return problem;
    }

    Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** Whether the answer closes the connection, so that a refused client holds nothing of the sidecar's. */
    boolean closeConnection() {
        return closeConnection;
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

    static ApiException tooManyLongPolls(int max, int retryAfterSeconds) {
        return new ApiException(Problem.of(503, "too-many-long-polls", "Too many long polls",
                "this sidecar already holds its limit of " + max + " waiting long polls (dra.api.max-long-polls); "
                        + "poll again after Retry-After"), retryAfterSeconds, true);
    }
}
