package dev.dra.sidecar.identity;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.StreamSupport;

/**
 * Verifies a pod's projected service account token here, as the API server's authenticator does, without asking it:
 * the signature (RS256, ES256, ES384 or ES512, by a key of the issuer's that its {@code kid} names), the issuer
 * ({@code iss} is the discovery document's {@code issuer}), the audience ({@code aud} holds the agent's or one of its
 * containers', {@link ViewAudience}), the times
 * ({@code exp} is required; {@code exp}, {@code nbf} and {@code iat} are allowed {@link #CLOCK_SKEW} of difference
 * between this node's clock and the API server's, the API server's own leeway), and that the token is bound to a
 * pod: its {@code kubernetes.io} claim names the namespace, the pod's name and UID, and {@code sub} is a service
 * account of that namespace. Whether that pod still exists is not its business ({@link NodePods} knows).
 * Holds nothing; safe for use by many threads at once.
 */
final class TokenVerifier {

    /** How far this node's clock may be from the API server's: a token is taken this long before and after. */
    static final Duration CLOCK_SKEW = Duration.ofSeconds(60);
    /** The JWS algorithms the API server signs service account tokens with. */
    static final List<String> ALGORITHMS = List.of("RS256", "ES256", "ES384", "ES512");
    private static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

    private final String audience;
    private final Clock clock;

    TokenVerifier(String audience, Clock clock) {
        this.audience = audience;
        this.clock = clock;
    }

    /**
     * The pod {@code token} is bound to, when one of {@code keys} signed it and its claims hold.
     *
     * @throws Refusal {@link Refusal.Reason#INVALID_TOKEN}, saying which check failed
     */
    BoundPod verify(Jwt token, IssuerKeys.Keys keys) {
        String algorithm = token.algorithm();
        if (!ALGORITHMS.contains(algorithm)) {
            throw Jwt.invalid("its algorithm is " + (algorithm.isEmpty() ? "not named" : algorithm)
                    + ", not one the service account issuer signs with");
        }
        if (token.header().has("crit")) {
            throw Jwt.invalid("it has critical header parameters");
        }
        boolean signed = false;
        for (SigningKey key : keys.candidates(token)) {
            signed |= key.verifies(token.signed(), token.signature());
        }
        if (!signed) {
            throw Jwt.invalid("its signature is not the service account issuer's");
        }
        JsonNode claims = token.claims();
        if (!keys.issuer().equals(claims.path("iss").asText(""))) {
            throw Jwt.invalid("its issuer is not " + keys.issuer());
        }
        String container = ViewAudience.container(audience, audiences(claims.path("aud")));
        if (container == null) {
            throw Jwt.invalid("it is not for " + ViewAudience.describe(audience));
        }
        times(claims);
        JsonNode bound = claims.path("kubernetes.io");
        String namespace = bound.path("namespace").asText("");
        String podName = bound.path("pod").path("name").asText("");
        String podUid = bound.path("pod").path("uid").asText("");
        if (namespace.isEmpty() || podName.isEmpty() || podUid.isEmpty()
                || !claims.path("sub").asText("").startsWith(SERVICE_ACCOUNT_PREFIX + namespace + ":")) {
            throw new Refusal(Refusal.Reason.INVALID_TOKEN,
                    "the token is not a service account token bound to a pod (a projected token of the pod is)");
        }
        return new BoundPod(namespace, podName, podUid, bound.path("node").path("name").asText(""), container);
    }

    private void times(JsonNode claims) {
        Instant now = clock.instant();
        if (!claims.path("exp").isNumber()) {
            throw Jwt.invalid("it has no expiry (exp)");
        }
        Instant expiry = Instant.ofEpochSecond(claims.path("exp").asLong());
        if (now.isAfter(expiry.plus(CLOCK_SKEW))) {
            throw Jwt.invalid("it expired at " + expiry);
        }
        for (String claim : List.of("nbf", "iat")) {
            if (claims.path(claim).isNumber()) {
                Instant from = Instant.ofEpochSecond(claims.path(claim).asLong());
                if (now.isBefore(from.minus(CLOCK_SKEW))) {
                    throw Jwt.invalid("it is not valid before " + from + " (" + claim + ")");
                }
            }
        }
    }

    static List<String> audiences(JsonNode aud) {
        if (aud.isTextual()) {
            return List.of(aud.asText());
        }
        return aud.isArray() ? StreamSupport.stream(aud.spliterator(), false)
                .map(node -> node.asText("")).toList() : List.of();
    }
}
