package dev.dra.sidecar.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The calls made to the Kubernetes API server, with the JDK's HttpClient (HTTP/1.1) and Jackson: GET and POST of
 * JSON, answered asynchronously within 10 s or a shorter bound the caller gives, and a watch read line by line on the
 * calling thread. Authenticates with a service account token read again for every call (it rotates), and trusts only
 * the given CA. Every call's outcome tells its {@link Reachability}, which logs the episodes in which the API server
 * cannot be reached. Safe for use by many threads at once.
 */
public final class KubeApi {

    /** A call the API server answered with a status other than 2xx; its message names the call and the status. */
    public static final class Failed extends RuntimeException {
        private final int status;

        Failed(int status, String message) {
            super(message);
            this.status = status;
        }

        /** The HTTP status the API server answered with, such as 404. */
        public int status() {
            return status;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
    private static final String TOKEN_UNREADABLE = "cannot read the agent's token ";
    /** JSON; the API server serves its issuer's key set as {@code application/jwk-set+json} only. */
    private static final String ACCEPT = "application/json, application/jwk-set+json";

    private final URI server;
    private final Path tokenFile;
    private final HttpClient client;
    private final ApiRequests requests;
    private final Reachability reachability;

    /**
     * @param server the API server, such as {@code https://10.96.0.1:443}
     * @param tokenFile the service account token every call sends as its bearer token
     * @param caFile the PEM certificates the API server's certificate must be signed by
     * @throws IllegalStateException when the CA file cannot be read or used
     */
    public KubeApi(URI server, Path tokenFile, Path caFile) {
        this(server, tokenFile, caFile, ApiRequests.NONE);
    }

    /** {@link #KubeApi(URI, Path, Path)}, each call counted in {@code requests}. */
    public KubeApi(URI server, Path tokenFile, Path caFile, ApiRequests requests) {
        this.requests = requests;
        this.reachability = new Reachability(server.toString());
        this.server = server;
        this.tokenFile = tokenFile;
        this.client = HttpClient.newBuilder().sslContext(trusting(caFile)).connectTimeout(CALL_TIMEOUT)
                .version(HttpClient.Version.HTTP_1_1).build();
    }

    /**
     * The API server of the cluster this process runs in, from {@code KUBERNETES_SERVICE_HOST} and
     * {@code KUBERNETES_SERVICE_PORT}; empty outside a pod (either is unset).
     */
    public static Optional<URI> inCluster() {
        String host = System.getenv("KUBERNETES_SERVICE_HOST");
        String port = System.getenv("KUBERNETES_SERVICE_PORT");
        if (host == null || port == null) {
            return Optional.empty();
        }
        return Optional.of(URI.create("https://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port));
    }

    /**
     * The failure a call's future completed with, as the call raised it: the cause of a
     * {@link CompletionException}, else {@code failure} itself. A refused call's is a {@link Failed}.
     */
    public static Throwable cause(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /**
     * Whether {@code failure} (as a call's future or a watch raised it) is one where the API server gave no answer at
     * all: no connection, a timeout, a connection cut. A refusal ({@link Failed}), an error event of a watch, or the
     * agent's own token unreadable are not.
     */
    public static boolean unanswered(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof UncheckedIOException && cause.getMessage() != null
                    && cause.getMessage().startsWith(TOKEN_UNREADABLE)) {
                return false;
            }
            if (cause instanceof IOException || cause instanceof TimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** GETs {@code pathAndQuery}; every failure, also one to make the request (the token unreadable), completes it. */
    public CompletableFuture<JsonNode> get(String pathAndQuery) {
        return get(pathAndQuery, CALL_TIMEOUT);
    }

    /**
     * As {@link #get(String)}, answered or failed within {@code timeout} (at most the 10 s of every call): the future
     * completes by then with a {@link TimeoutException} at the latest.
     */
    public CompletableFuture<JsonNode> get(String pathAndQuery, Duration timeout) {
        return send(() -> request(pathAndQuery).GET().build(), timeout);
    }

    /** POSTs {@code body} as JSON; every failure, also one to make the request, completes it. */
    public CompletableFuture<JsonNode> post(String path, Object body) {
        return post(path, body, CALL_TIMEOUT);
    }

    /**
     * As {@link #post(String, Object)}, answered or failed within {@code timeout}, as {@link #get(String, Duration)}.
     */
    public CompletableFuture<JsonNode> post(String path, Object body, Duration timeout) {
        return send(() -> {
            byte[] json;
            try {
                json = JSON.writeValueAsBytes(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return request(path).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(json)).build();
        }, timeout);
    }

    /**
     * Reads a watch until the API server ends it, handing each event (a line of JSON: {@code type} and
     * {@code object}) to {@code events} on the calling thread; what {@code events} throws ends the read.
     *
     * @throws Failed when the API server refuses the watch
     */
    public void watch(String pathAndQuery, Consumer<JsonNode> events) throws IOException, InterruptedException {
        HttpRequest request = request(pathAndQuery).GET().build();
        HttpResponse<Stream<String>> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofLines());
        } catch (IOException e) {
            requests.count("GET", pathAndQuery, "failed");
            reachability.unanswered("watch " + pathAndQuery, e);
            throw e;
        }
        requests.count("GET", pathAndQuery, response.statusCode() / 100 == 2 ? "ok" : "refused");
        reachability.answered();
        try (Stream<String> lines = response.body()) {
            if (response.statusCode() / 100 != 2) {
                throw new Failed(response.statusCode(), "watch " + pathAndQuery + ": HTTP " + response.statusCode());
            }
            lines.filter(line -> !line.isBlank()).forEach(line -> {
                try {
                    events.accept(JSON.readTree(line));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    private HttpRequest.Builder request(String pathAndQuery) {
        String token;
        try {
            token = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(TOKEN_UNREADABLE + tokenFile, e);
        }
        return HttpRequest.newBuilder(server.resolve(pathAndQuery)).header("Authorization", "Bearer " + token)
                .header("Accept", ACCEPT);
    }

    private CompletableFuture<JsonNode> send(Supplier<HttpRequest> made, Duration bound) {
        HttpRequest request;
        try {
            request = made.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        Duration timeout = bound.compareTo(CALL_TIMEOUT) < 0 ? bound : CALL_TIMEOUT;
        HttpRequest timed = HttpRequest.newBuilder(request, (name, value) -> true).timeout(timeout).build();
        String pathAndQuery = request.uri().getRawPath()
                + (request.uri().getRawQuery() == null ? "" : "?" + request.uri().getRawQuery());
        return client.sendAsync(timed, HttpResponse.BodyHandlers.ofInputStream()).whenComplete((response, failure) -> {
            requests.count(request.method(), pathAndQuery, failure != null ? "failed"
                    : response.statusCode() / 100 == 2 ? "ok" : "refused");
            if (failure == null) {
                reachability.answered();
            } else {
                reachability.unanswered(request.method() + " " + pathAndQuery, cause(failure));
            }
        }).thenApply(response -> {
            try (InputStream body = response.body()) {
                byte[] bytes = body.readNBytes(8 << 20);
                if (response.statusCode() / 100 != 2) {
                    throw new Failed(response.statusCode(), request.method() + " " + request.uri().getRawPath()
                            + ": HTTP " + response.statusCode());
                }
                return JSON.readTree(bytes);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).exceptionally(failure -> {
            if (cause(failure) instanceof TimeoutException) {
                throw new CompletionException(new TimeoutException(request.method() + " " + request.uri().getRawPath()
                        + ": no answer within " + timeout.toMillis() + " ms"));
            }
            throw failure instanceof CompletionException completion ? completion : new CompletionException(failure);
        });
    }

    private static SSLContext trusting(Path caFile) {
        try (InputStream in = Files.newInputStream(caFile)) {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int i = 0;
            for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                trusted.setCertificateEntry("ca-" + i++, certificate);
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot use the API server's CA " + caFile + ": " + e.getMessage(), e);
        }
    }
}
