package dev.dra.sidecar.identity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.kube.KubeApi;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Checks a pod's token with a TokenReview for the agent's audience (and the container audience the token claims,
 * {@link ViewAudience}) and says which pod, and which container's view, it is bound to: the fallback of
 * {@link PodTokens} while the service account issuer's keys cannot be had. Each review is answered within
 * {@link NodeConfig#lookupTimeout()} or fails as {@link Refusal.Reason#UNAVAILABLE}. Verdicts
 * (also refusals) are kept briefly, keyed by the token's SHA-256 (the token itself is not kept), at most
 * {@link NodeConfig#tokenCacheSize()} of them, each until {@link NodeConfig#tokenCacheTtl()} or the token's expiry,
 * whichever comes first; callers with the same token share one review in flight.
 */
final class TokenReviewer {

    private record Verdict(CompletableFuture<BoundPod> pod, long untilNanos) {}

    static final String POD_NAME = "authentication.kubernetes.io/pod-name";
    static final String POD_UID = "authentication.kubernetes.io/pod-uid";
    static final String NODE_NAME = "authentication.kubernetes.io/node-name";
    private static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubeApi api;
    private final String audience;
    private final long ttlNanos;
    private final int size;
    private final Duration timeout;
    private final Map<String, Verdict> verdicts = new LinkedHashMap<>(16, 0.75f, true);

    TokenReviewer(KubeApi api, NodeConfig config) {
        this.api = api;
        this.audience = config.audience();
        this.ttlNanos = config.tokenCacheTtl().toNanos();
        this.size = config.tokenCacheSize();
        this.timeout = config.lookupTimeout();
    }

    /** The pod {@code token} is bound to; fails with a {@link Refusal}. */
    CompletableFuture<BoundPod> review(String token) {
        String key = sha256(token);
        long now = System.nanoTime();
        synchronized (verdicts) {
            Verdict known = verdicts.get(key);
            if (known != null && known.untilNanos() - now > 0) {
                return known.pod();
            }
            CompletableFuture<BoundPod> pod = ask(token);
            verdicts.put(key, new Verdict(pod, now + Math.min(ttlNanos, untilExpiry(token))));
            while (verdicts.size() > size) {
                verdicts.remove(verdicts.keySet().iterator().next());
            }
            // A review that could not be made is no verdict: the next request asks again.
            pod.whenComplete((bound, failure) -> {
                if (failure != null && !(KubeApi.cause(failure) instanceof Refusal refusal
                        && refusal.reason() != Refusal.Reason.UNAVAILABLE)) {
                    synchronized (verdicts) {
                        verdicts.remove(key);
                    }
                }
            });
            return pod;
        }
    }

    int size() {
        synchronized (verdicts) {
            return verdicts.size();
        }
    }

    private CompletableFuture<BoundPod> ask(String token) {
        Map<String, Object> review = Map.of("apiVersion", "authentication.k8s.io/v1", "kind", "TokenReview",
                "spec", Map.of("token", token, "audiences", ViewAudience.agents(audience, claimedAudiences(token))));
        return api.post("/apis/authentication.k8s.io/v1/tokenreviews", review, timeout).handle((answer, failure) -> {
            if (failure != null) {
                throw new Refusal(Refusal.Reason.UNAVAILABLE, "the token cannot be checked now: "
                        + KubeApi.cause(failure).getMessage());
            }
            return bound(answer.path("status"));
        });
    }

    private BoundPod bound(JsonNode status) {
        if (!status.path("authenticated").asBoolean(false)) {
            throw new Refusal(Refusal.Reason.INVALID_TOKEN, "the token is not valid for " + ViewAudience.describe(audience)
                    + (status.path("error").asText("").isEmpty() ? "" : ": " + status.path("error").asText()));
        }
        List<String> granted = new ArrayList<>();
        status.path("audiences").forEach(each -> granted.add(each.asText()));
        String container = ViewAudience.container(audience, granted);
        boolean forAudience = container != null;
        JsonNode user = status.path("user");
        String username = user.path("username").asText("");
        String podName = user.path("extra").path(POD_NAME).path(0).asText("");
        String podUid = user.path("extra").path(POD_UID).path(0).asText("");
        String[] account = username.startsWith(SERVICE_ACCOUNT_PREFIX)
                ? username.substring(SERVICE_ACCOUNT_PREFIX.length()).split(":") : new String[0];
        if (!forAudience || account.length != 2 || podName.isEmpty() || podUid.isEmpty()) {
            throw new Refusal(Refusal.Reason.INVALID_TOKEN, forAudience
                    ? "the token is not a service account token bound to a pod (a projected token of the pod is)"
                    : "the token is not for " + ViewAudience.describe(audience));
        }
        return new BoundPod(account[0], podName, podUid, user.path("extra").path(NODE_NAME).path(0).asText(""),
                container);
    }

    /**
     * The audiences the token's payload claims (read only to ask the review for the container's audience it names,
     * which the review then confirms or not); none when it is no JWT.
     */
    private static List<String> claimedAudiences(String token) {
        try {
            return TokenVerifier.audiences(Jwt.parse(token).claims().path("aud"));
        } catch (Refusal notAJwt) {
            return List.of();
        }
    }

    /** How long until the token's {@code exp}, as its payload says (read only to bound the cache, not trusted). */
    private static long untilExpiry(String token) {
        try {
            String[] parts = token.split("\\.");
            JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
            long exp = claims.path("exp").asLong(0);
            return exp == 0 ? Long.MAX_VALUE
                    : Math.max(0, (exp * 1000 - System.currentTimeMillis())) * 1_000_000;
        } catch (Exception e) {
            return Long.MAX_VALUE; // not a JWT: the review says what it is, and the TTL bounds the verdict
        }
    }

    private static String sha256(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is in every JDK", e);
        }
    }
}
