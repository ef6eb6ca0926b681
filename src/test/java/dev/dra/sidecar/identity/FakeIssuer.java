package dev.dra.sidecar.identity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.dra.sidecar.kube.KubeApi;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in API server on the loopback address for what node mode asks about tokens: the issuer's discovery
 * document and key set (each answered with a status the test sets), and TokenReviews, which it answers as
 * authenticated for pod {@code ns/reviewed}, for the review's audiences that the token claims; it counts the requests
 * to each path.
 */
final class FakeIssuer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final List<Map<String, Object>> keys = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    volatile int discoveryStatus = 200;
    volatile int jwksStatus = 200;

    FakeIssuer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::answer);
        server.start();
    }

    /** Publishes {@code jwk} in the key set from now on. */
    void publish(Map<String, Object> jwk) {
        keys.add(jwk);
    }

    /** The requests made to {@code path} so far. */
    int requests(String path) {
        return requests.computeIfAbsent(path, p -> new AtomicInteger()).get();
    }

    /** A client of this server, with a token and CA file made in {@code dir}. */
    KubeApi api(Path dir) throws IOException {
        Path token = Files.writeString(dir.resolve("token"), "agent-token\n");
        Path ca = Files.writeString(dir.resolve("ca.crt"), "");
        return new KubeApi(URI.create("http://127.0.0.1:" + server.getAddress().getPort()), token, ca);
    }

    private void answer(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        requests.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
        byte[] request = exchange.getRequestBody().readAllBytes();
        int status;
        Object body;
        switch (path) {
            case IssuerKeys.DISCOVERY -> {
                status = discoveryStatus;
                body = Map.of("issuer", TokenVerifierTest.ISSUER, "jwks_uri", "https://keys.example/jwks");
            }
            case IssuerKeys.JWKS -> {
                status = jwksStatus;
                body = Map.of("keys", List.copyOf(keys));
            }
            case "/apis/authentication.k8s.io/v1/tokenreviews" -> {
                status = 201;
                body = Map.of("status", Map.of("authenticated", true, "audiences", granted(request),
                        "user", Map.of("username", "system:serviceaccount:ns:app", "extra", Map.of(
                                "authentication.kubernetes.io/pod-name", List.of("reviewed"),
                                "authentication.kubernetes.io/pod-uid", List.of("uid-r")))));
            }
            default -> {
                status = 404;
                body = Map.of();
            }
        }
        byte[] bytes = JSON.writeValueAsBytes(status / 100 == 2 ? body : Map.of("kind", "Status", "code", status));
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /**
     * The audiences a review grants, as the API server grants them: those of the review's {@code spec.audiences} that
     * the token's {@code aud} holds.
     */
    private static List<String> granted(byte[] review) throws IOException {
        JsonNode spec = JSON.readTree(review).path("spec");
        List<String> claimed = TokenVerifier.audiences(Jwt.parse(spec.path("token").asText()).claims().path("aud"));
        List<String> granted = new ArrayList<>();
        spec.path("audiences").forEach(audience -> {
            if (claimed.contains(audience.asText())) {
                granted.add(audience.asText());
            }
        });
        return granted;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
