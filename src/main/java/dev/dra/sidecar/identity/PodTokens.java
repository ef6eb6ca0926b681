package dev.dra.sidecar.identity;

import dev.dra.sidecar.kube.KubeApi;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Says which pod a request's token is bound to. Once the service account issuer's keys are held ({@link IssuerKeys},
 * fetched at start), every token is verified here ({@link TokenVerifier}) and the API server is not asked; a token
 * of the issuer's algorithms whose {@code kid} names a key not held waits for a fetch of the keys
 * ({@link IssuerKeys#refetch}, spaced), at most {@code lookupTimeout}: {@code UNAVAILABLE} when that fetch fails,
 * {@code INVALID_TOKEN} when the key is not among those fetched. Only while no keys have been had yet (the API
 * server did not give them at start, and has not since) is a token reviewed by the API server
 * ({@link TokenReviewer}), also within {@code lookupTimeout}.
 */
final class PodTokens implements AutoCloseable {

    private final IssuerKeys issuer;
    private final TokenVerifier verifier;
    private final TokenReviewer reviewer;
    private final Duration lookupTimeout;

    PodTokens(KubeApi api, NodeConfig config) {
        this(IssuerKeys.start(api), new TokenVerifier(config.audience(), Clock.systemUTC()),
                new TokenReviewer(api, config), config.lookupTimeout());
    }

    PodTokens(IssuerKeys issuer, TokenVerifier verifier, TokenReviewer reviewer, Duration lookupTimeout) {
        this.issuer = issuer;
        this.verifier = verifier;
        this.reviewer = reviewer;
        this.lookupTimeout = lookupTimeout;
    }

    /** The pod {@code token} is bound to; fails with a {@link Refusal}. */
    CompletableFuture<BoundPod> pod(String token) {
        IssuerKeys.Keys keys = issuer.held();
        if (keys == null) {
            return reviewer.review(token);
        }
        Jwt jwt;
        try {
            jwt = Jwt.parse(token);
            if (keys.holds(jwt) || jwt.keyId().isEmpty() || !TokenVerifier.ALGORITHMS.contains(jwt.algorithm())) {
                return CompletableFuture.completedFuture(verifier.verify(jwt, keys)); // no fetch can make it verify
            }
        } catch (Refusal refusal) {
            return CompletableFuture.failedFuture(refusal);
        }
        CompletableFuture<IssuerKeys.Keys> refetched = issuer.refetch()
                .orTimeout(lookupTimeout.toMillis(), TimeUnit.MILLISECONDS);
        return refetched.handle((fetched, failure) -> {
            if (fetched != null && fetched.holds(jwt)) {
                return verifier.verify(jwt, fetched);
            }
            if (failure != null) {
                throw new Refusal(Refusal.Reason.UNAVAILABLE, "the token names a key (kid " + jwt.keyId()
                        + ") the agent does not hold, and the issuer's keys cannot be fetched now: "
                        + (KubeApi.cause(failure) instanceof TimeoutException ? "no answer within "
                        + lookupTimeout.toMillis() + " ms" : KubeApi.cause(failure).getMessage()));
            }
            throw Jwt.invalid("it names a key (kid " + jwt.keyId() + ") the service account issuer does not have");
        });
    }

    @Override
    public void close() {
        issuer.close();
    }
}
