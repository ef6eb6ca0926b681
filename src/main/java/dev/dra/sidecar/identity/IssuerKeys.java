package dev.dra.sidecar.identity;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dra.sidecar.kube.KubeApi;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * The service account issuer's signing keys, as the API server publishes them: its OpenID discovery document
 * ({@value #DISCOVERY}: the {@code issuer}) and its key set ({@value #JWKS}), both through {@link KubeApi}. The key
 * set is always read from the API server's own {@value #JWKS}, whatever {@code jwks_uri} the discovery document
 * names: that may be a host outside the cluster, which must never get the agent's token.
 *
 * <p>Fetched at start on the daemon thread {@code dra-issuer-keys}, again every {@link #REFRESH} (so a key the issuer
 * dropped is dropped here by then), and when a token names a key not held ({@link #refetch}), at most once every
 * {@link #REFETCH_SPACING}. A failed fetch keeps what is held. Until a first fetch succeeds nothing is held
 * ({@link #held} is {@code null}) and the fetch is tried again every {@link #RETRY}.
 */
final class IssuerKeys implements AutoCloseable {

    static final String DISCOVERY = "/.well-known/openid-configuration";
    static final String JWKS = "/openid/v1/jwks";
    static final Duration REFRESH = Duration.ofMinutes(10);
    static final Duration RETRY = Duration.ofSeconds(5);
    static final Duration REFETCH_SPACING = Duration.ofSeconds(10);
    private static final Logger LOG = Logger.getLogger(IssuerKeys.class);

    /** What one fetch brought: the issuer's name and the keys this agent can verify with, in the set's order. */
    record Keys(String issuer, List<SigningKey> keys) {

        /** Whether a key of {@code token}'s {@code kid} is held (for a token without one: any key of its alg). */
        boolean holds(Jwt token) {
            return keys.stream().anyMatch(key -> token.keyId().isEmpty() ? key.algorithm().equals(token.algorithm())
                    : key.kid().equals(token.keyId()));
        }

        /** The keys that may have signed {@code token}: of its {@code kid} (any, without one) and its alg. */
        List<SigningKey> candidates(Jwt token) {
            return keys.stream().filter(key -> key.algorithm().equals(token.algorithm())
                    && (token.keyId().isEmpty() || key.kid().equals(token.keyId()))).toList();
        }

        @Override
        public String toString() {
            return "issuer " + issuer + ", keys " + keys.stream().map(k -> k.kid() + " (" + k.algorithm() + ")")
                    .collect(Collectors.joining(", "));
        }
    }

    private final KubeApi api;
    private final long spacingNanos;
    private final LongSupplier clock;
    private final ScheduledExecutorService timer;
    private volatile Keys keys;
    private CompletableFuture<Keys> fetching;
    private long lastFetchNanos;
    private Throwable lastFailure;
    private boolean failing;

    private IssuerKeys(KubeApi api, Duration spacing, LongSupplier clock) {
        this.api = api;
        this.spacingNanos = spacing.toNanos();
        this.clock = clock;
        this.lastFetchNanos = clock.getAsLong() - spacingNanos;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "dra-issuer-keys");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts fetching the keys now, and keeps them as the class says until {@link #close}. */
    static IssuerKeys start(KubeApi api) {
        return start(api, REFETCH_SPACING, System::nanoTime);
    }

    /**
     * As {@link #start(KubeApi)}, fetching for a key not held at most once every {@code spacing} as {@code clock}
     * ({@link System#nanoTime()}'s kind of value) measures it.
     */
    static IssuerKeys start(KubeApi api, Duration spacing, LongSupplier clock) {
        IssuerKeys keys = new IssuerKeys(api, spacing, clock);
        keys.timer.execute(keys::scheduled);
        return keys;
    }

    /** The keys held, or {@code null} before a first fetch succeeded. */
    Keys held() {
        return keys;
    }

    /**
     * The keys after a fetch made for a token whose key is not held: the fetch in flight, else a new one, but if one
     * started within the spacing ({@link #REFETCH_SPACING}), what it left: the keys held, or its failure when it
     * failed.
     */
    synchronized CompletableFuture<Keys> refetch() {
        if (fetching != null) {
            return fetching.copy();
        }
        if (clock.getAsLong() - lastFetchNanos < spacingNanos) {
            return lastFailure == null ? CompletableFuture.completedFuture(keys)
                    : CompletableFuture.failedFuture(lastFailure);
        }
        return fetch().copy();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    private void scheduled() {
        CompletableFuture<Keys> fetch;
        synchronized (this) {
            fetch = fetching != null ? fetching : fetch();
        }
        fetch.whenComplete((fetched, failure) -> {
            if (!timer.isShutdown()) {
                Duration next = fetched == null && keys == null ? RETRY : REFRESH;
                timer.schedule(this::scheduled, next.toMillis(), TimeUnit.MILLISECONDS);
            }
        });
    }

    /** Starts a fetch; the caller holds the lock. */
    private CompletableFuture<Keys> fetch() {
        lastFetchNanos = clock.getAsLong();
        CompletableFuture<Keys> fetch = api.get(DISCOVERY).thenCompose(discovery -> api.get(JWKS)
                .thenApply(set -> keys(discovery, set)));
        fetching = fetch;
        fetch.whenComplete(this::fetched);
        return fetch;
    }

    private void fetched(Keys fetched, Throwable failure) {
        Keys before;
        boolean failedBefore;
        synchronized (this) {
            fetching = null;
            before = keys;
            failedBefore = failing;
            failing = failure != null;
            lastFailure = failure == null ? null : KubeApi.cause(failure);
            if (fetched != null) {
                keys = fetched;
            }
        }
        if (failure != null) {
            String message = KubeApi.cause(failure).getMessage();
            if (before == null && !failedBefore) {
                LOG.warnf("The service account issuer's keys cannot be fetched (GET %s and %s: %s): pods' tokens "
                        + "are checked with a TokenReview until they can be; trying again every %d s", DISCOVERY,
                        JWKS, message, RETRY.toSeconds());
            } else {
                LOG.debugf("The service account issuer's keys cannot be fetched now, %s: %s",
                        before == null ? "still none held" : "the keys held are kept", message);
            }
        } else if (before == null) {
            LOG.infof("Pods' tokens are verified here, with the service account issuer's keys: %s", fetched);
        } else if (!before.toString().equals(fetched.toString())) {
            LOG.infof("The service account issuer's keys are now: %s", fetched);
        }
    }

    /** The keys of a discovery document and a key set; fails when they name no issuer or no key usable here. */
    static Keys keys(JsonNode discovery, JsonNode set) {
        String issuer = discovery.path("issuer").asText("");
        if (issuer.isEmpty()) {
            throw new IllegalStateException(DISCOVERY + " names no issuer");
        }
        List<SigningKey> keys = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (JsonNode jwk : set.path("keys")) {
            try {
                SigningKey.of(jwk).ifPresentOrElse(keys::add, () -> skipped.add(jwk.path("kid").asText("")
                        + " (kty " + jwk.path("kty").asText("") + ")"));
            } catch (GeneralSecurityException e) {
                skipped.add(jwk.path("kid").asText("") + " (" + e.getMessage() + ")");
            }
        }
        if (!skipped.isEmpty()) {
            LOG.debugf("Keys of %s not used to verify tokens: %s", JWKS, skipped);
        }
        if (keys.isEmpty()) {
            throw new IllegalStateException(JWKS + " holds no key of RS256, ES256, ES384 or ES512" + (skipped.isEmpty()
                    ? "" : "; skipped: " + skipped));
        }
        return new Keys(issuer, List.copyOf(keys));
    }
}
