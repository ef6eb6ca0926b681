package dev.dra.sidecar.api.problem;

import dev.dra.sidecar.decode.FailureCode;
import dev.dra.sidecar.identity.Refusal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every problem the API answers with, written once: the machine-readable {@code code}, the HTTP status, the title,
 * whether the client may retry (then the answer carries {@code Retry-After}), when a client meets it, and on which
 * operations the OpenAPI document lists it. The problem bodies, the OpenAPI enumeration of {@code code} and the
 * problem responses of each operation are derived from here; docs/api.md describes each code (a test checks that
 * every code is there).
 *
 * <p>A new problem: one constant here, thrown as {@code new ApiException(ProblemType.X, detail)}, and its row in
 * docs/api.md (ApiReferenceTest checks it), then regenerate the OpenAPI document (OpenApiDocumentTest says how).
 */
public enum ProblemType {
    INVALID_NAME("invalid-name", 400, "Invalid name", false, Listed.EVERY_READ,
            "a name in the path is not valid"),
    INVALID_PARAMETER("invalid-parameter", 400, "Invalid parameter", false, Listed.EVERY_READ,
            "a bad query parameter"),
    INVALID_HOST("invalid-host", 400, "Invalid Host header", false, Listed.EVERY_READ,
            "the Host header is not an allowed one"),
    BAD_REQUEST("bad-request", 400, "Bad request", false, Listed.NOWHERE,
            "the request is malformed in another way"),
    MISSING_TOKEN("missing-token", 401, "Token missing", false, Listed.EVERY_READ,
            "node mode: no Authorization: Bearer token (the pod's projected service account token)"),
    INVALID_TOKEN("invalid-token", 401, "Token not valid", false, Listed.EVERY_READ,
            "node mode: the token does not verify for the agent's audience: forged or altered (not signed by the "
                    + "service account issuer's keys), expired, not valid yet, for another audience or issuer, or not "
                    + "bound to a pod; or its audience names a container the pod does not have"),
    POD_NOT_ON_NODE("pod-not-on-node", 403, "Pod not on this node", false, Listed.EVERY_READ,
            "node mode: the token's pod is not on this node, or is gone (its UID is not the token's)"),
    PEER_NOT_ALLOWED("peer-not-allowed", 403, "Peer not allowed", false, Listed.EVERY_READ,
            "node mode: the connection does not come from the token's pod's own address (another pod's, the "
                    + "node's, or a hostNetwork pod's)"),
    NOT_FOUND("not-found", 404, "Not found", false, Listed.EVERY_READ,
            "no such claim, request, driver, device or attribute"),
    NOT_OWN_CLAIM("not-own-claim", 404, "Not the caller's own claim", false, Listed.EVERY_READ,
            "node mode: the claim, template claim or extended resource is not the caller's own (its container's, or "
                    + "its pod's for a token of the bare audience), whether it exists or not"),
    METHOD_NOT_ALLOWED("method-not-allowed", 405, "Method not allowed", false, Listed.NOWHERE,
            "the resource does not take this method (Allow names those it takes)"),
    NOT_ACCEPTABLE("not-acceptable", 406, "Not acceptable", false, Listed.NOWHERE,
            "Accept excludes every media type the resource has"),
    AMBIGUOUS_DEVICE("ambiguous-device", 409, "Ambiguous device", false, Listed.ATTRIBUTE_READ,
            "several devices of the request have this name; pick one with ?driver= and/or ?pool="),
    ENV_NAME_COLLISION("env-name-collision", 409, "Environment variable names collide", false, Listed.ENV_READ,
            "two values of the selected devices would get one variable name; select fewer devices with ?driver= "
                    + "and/or ?pool="),
    ENV_VALUE_UNREPRESENTABLE("env-value-unrepresentable", 409, "Value cannot be a shell variable", false,
            Listed.ENV_READ, "a value of the selected devices has a NUL character, which no shell variable can hold"),
    PAYLOAD_TOO_LARGE("payload-too-large", 413, "Payload too large", false, Listed.VALIDATE,
            "the body is larger than dra.metadata.max-file-size, or its declared length is larger than "
                    + "quarkus.http.limits.max-body-size (then the connection is closed)"),
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", 415, "Unsupported media type", false, Listed.NOWHERE,
            "the body's Content-Type is not one the resource takes"),
    INTERNAL("internal", 500, "Internal error", false, Listed.NOWHERE,
            "the sidecar failed; its log says why"),
    INVALID_OBJECT(FailureCode.INVALID_OBJECT, 502, "Metadata object cannot be decoded",
            "a file holds an object that cannot be decoded"),
    NO_COMPATIBLE_VERSION(FailureCode.NO_COMPATIBLE_VERSION, 502, "No compatible metadata version",
            "no object of a file has an apiVersion the sidecar knows"),
    FILE_TOO_LARGE(FailureCode.FILE_TOO_LARGE, 502, "Metadata file too large",
            "a file is larger than dra.metadata.max-file-size"),
    MEMORY_BOUND_REACHED(FailureCode.MEMORY_BOUND_REACHED, 507, "Metadata past the sidecar's memory bound",
            "holding a file would take the sidecar past its memory bound (dra.metadata.max-held, by default half "
                    + "of the heap the container's memory limit gives); the detail names the bound and what to raise"),
    NO_METADATA_OBJECTS(FailureCode.NO_METADATA_OBJECTS, 503, "Metadata file is empty",
            "a file is empty, probably while a driver writes it"),
    MALFORMED_STREAM(FailureCode.MALFORMED_STREAM, 503, "Metadata file is not well-formed JSON",
            "a file is cut short or not JSON, probably while a driver writes it"),
    UNREADABLE(FailureCode.UNREADABLE, 503, "Metadata file cannot be read",
            "a file cannot be opened or read (permissions, I/O error)"),
    IDENTITY_UNAVAILABLE("identity-unavailable", 503, "Identity cannot be checked now", true, Listed.EVERY_READ,
            "node mode: the API server cannot be asked who the caller is now"),
    TOO_MANY_LONG_POLLS("too-many-long-polls", 503, "Too many long polls", 5, true, Listed.EVERY_READ,
            "a long poll past dra.api.max-long-polls; the answer closes the connection"),
    TOO_MANY_REQUEST_BODIES("too-many-request-bodies", 503, "Too many request bodies", 1, true, Listed.VALIDATE,
            "a request with a body past dra.api.max-request-bodies, refused before its body is read; the answer "
                    + "closes the connection");

    /** The operations of the OpenAPI document that list a problem among their responses. */
    public enum Listed {
        /** Every GET. */
        EVERY_READ,
        /** The GETs that answer from metadata files: all but the claim lists. */
        FILE_READ,
        /** The attribute GET. */
        ATTRIBUTE_READ,
        /** The environment GETs. */
        ENV_READ,
        /** {@code POST /validate}. */
        VALIDATE,
        /** None: the framework answers these for any resource; they are in the enumeration of codes only. */
        NOWHERE
    }

    /** Seconds a client should wait before it retries a retryable problem, unless its constant says otherwise. */
    private static final int RETRY_AFTER_SECONDS = 1;

    private final String code;
    private final int status;
    private final String title;
    private final Integer retryAfterSeconds;
    private final boolean closesConnection;
    private final Listed listed;
    private final String when;
    private final FailureCode failure;

    ProblemType(String code, int status, String title, boolean retryable, Listed listed, String when) {
        this(code, status, title, retryable ? RETRY_AFTER_SECONDS : null, false, listed, when, null);
    }

    /**
     * A problem whose answer tells the client to wait {@code retryAfterSeconds} and, with {@code closesConnection},
     * closes the connection, so that a refused client holds nothing of the sidecar's.
     */
    ProblemType(String code, int status, String title, int retryAfterSeconds, boolean closesConnection, Listed listed,
            String when) {
        this(code, status, title, retryAfterSeconds, closesConnection, listed, when, null);
    }

    /** A file that cannot be served: the decoder's code and whether a retry may help, with an HTTP status here. */
    ProblemType(FailureCode failure, int status, String title, String when) {
        this(failure.code(), status, title, failure.isTransient() ? RETRY_AFTER_SECONDS : null, false,
                Listed.FILE_READ, when, failure);
    }

    private ProblemType(String code, int status, String title, Integer retryAfterSeconds, boolean closesConnection,
            Listed listed, String when, FailureCode failure) {
        this.failure = failure;
        this.code = code;
        this.status = status;
        this.title = title;
        this.retryAfterSeconds = retryAfterSeconds;
        this.closesConnection = closesConnection;
        this.listed = listed;
        this.when = when;
    }

    /** The machine-readable code, as in the problem body's {@code code} and the end of its {@code type}. */
    public String code() {
        return code;
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** The {@code Retry-After} of the answer, or {@code null} when retrying the same request will not help. */
    public Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /**
     * The headers an answer of this type carries besides its body: {@code Retry-After} when retrying helps and
     * {@code Connection: close} when the type says so. Every problem answer, from the resources or from a Vert.x
     * handler, takes them from here.
     */
    public Map<String, String> headers() {
        Map<String, String> headers = new LinkedHashMap<>();
        if (retryAfterSeconds != null) {
            headers.put("Retry-After", String.valueOf(retryAfterSeconds));
        }
        if (status == 401) {
            headers.put("WWW-Authenticate", "Bearer");
        }
        if (closesConnection) {
            headers.put("Connection", "close");
        }
        return headers;
    }

    public Listed listed() {
        return listed;
    }

    /** When a client meets it, in a few words. */
    public String when() {
        return when;
    }

    /** The problem a file that cannot be served answers with. */
    public static ProblemType of(FailureCode failure) {
        for (ProblemType type : values()) {
            if (type.failure == failure) {
                return type;
            }
        }
        throw new IllegalStateException("no problem type for " + failure);
    }

    /** The problem a refused caller is answered with. */
    public static ProblemType of(Refusal.Reason reason) {
        return switch (reason) {
            case MISSING_TOKEN -> MISSING_TOKEN;
            case INVALID_TOKEN -> INVALID_TOKEN;
            case POD_NOT_ON_NODE -> POD_NOT_ON_NODE;
            case PEER_NOT_ALLOWED -> PEER_NOT_ALLOWED;
            case UNAVAILABLE -> IDENTITY_UNAVAILABLE;
        };
    }

    /** A problem body of this type. */
    public Problem problem(String detail) {
        return new Problem("urn:dra-metadata-sidecar:problem:" + code, title, status, detail, code);
    }
}
