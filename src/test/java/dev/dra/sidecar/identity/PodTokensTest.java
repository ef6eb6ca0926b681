package dev.dra.sidecar.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dra.sidecar.kube.KubeApi;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.Jws;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PodTokens} against a stand-in API server ({@link FakeIssuer}): with the issuer's keys fetched at start a
 * token costs no call; a token naming a key not held fetches the keys again, once within the spacing; and only while
 * the keys cannot be had is a token reviewed.
 */
class PodTokensTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final BoundPod READER = new BoundPod("ns", "reader", "uid-1", "node-a", "");

    @TempDir
    Path dir;
    private FakeIssuer server;
    private PodTokens tokens;
    private final Jws issuer = Jws.rs256();

    @BeforeEach
    void start() throws Exception {
        server = new FakeIssuer();
    }

    @AfterEach
    void stop() {
        if (tokens != null) {
            tokens.close();
        }
        server.close();
    }

    /** The clock the keys' fetch spacing is measured by, moved by the tests. */
    private final AtomicLong now = new AtomicLong(System.nanoTime());

    private IssuerKeys started() throws Exception {
        return started(IssuerKeys.REFETCH_SPACING);
    }

    private IssuerKeys started(Duration spacing) throws Exception {
        KubeApi api = server.api(dir);
        IssuerKeys keys = IssuerKeys.start(api, spacing, now::get);
        tokens = new PodTokens(keys, new TokenVerifier(TokenVerifierTest.AUDIENCE, Clock.systemUTC()),
                new TokenReviewer(api, config()), Duration.ofSeconds(2));
        return keys;
    }

    private static String claimsToken(Jws key, String kid) {
        return key.sign(kid, TokenVerifierTest.claims(Instant.now()));
    }

    private BoundPod pod(String token) {
        return tokens.pod(token).orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
    }

    private Refusal refusal(String token) {
        CompletionException failure = assertThrows(CompletionException.class, () -> pod(token));
        return assertInstanceOf(Refusal.class, failure.getCause());
    }

    @Test
    void withTheIssuersKeysHeldATokenCostsNoCall() throws Exception {
        server.publish(issuer.jwk("k1"));
        IssuerKeys keys = started();
        Eventually.awaitTrue(WAIT, "the keys are fetched at start", () -> keys.held() != null);
        assertEquals(1, server.requests(IssuerKeys.DISCOVERY));
        assertEquals(1, server.requests(IssuerKeys.JWKS));
        for (int i = 0; i < 3; i++) {
            assertEquals(READER, pod(claimsToken(issuer, "k1")));
        }
        assertEquals(Refusal.Reason.INVALID_TOKEN, refusal(claimsToken(Jws.rs256(), "k1")).reason());
        // no fetch can make these verify: an algorithm the issuer does not sign with, a token without kid
        assertEquals(Refusal.Reason.INVALID_TOKEN, refusal(issuer.sign(Map.of("alg", "HS256", "kid", "k9"),
                TokenVerifierTest.claims(Instant.now()))).reason());
        assertEquals(Refusal.Reason.INVALID_TOKEN, refusal(Jws.rs256().sign(Map.of("alg", "RS256"),
                TokenVerifierTest.claims(Instant.now()))).reason());
        assertEquals(1, server.requests(IssuerKeys.JWKS), "no call for a token of a held key, nor a hopeless one");
        assertEquals(0, server.requests("/apis/authentication.k8s.io/v1/tokenreviews"));
    }

    @Test
    void aTokenOfAKeyNotHeldFetchesTheKeysAgainAtMostOnceWithinTheSpacing() throws Exception {
        server.publish(issuer.jwk("k1"));
        Duration spacing = Duration.ofSeconds(2);
        IssuerKeys keys = started(spacing);
        Eventually.awaitTrue(WAIT, "the keys are fetched at start", () -> keys.held() != null);
        now.addAndGet(spacing.toNanos()); // the spacing has passed
        Jws rotated = Jws.es256();
        server.publish(rotated.jwk("k2"));
        assertEquals(READER, pod(claimsToken(rotated, "k2")), "the new key is fetched and verifies");
        assertEquals(2, server.requests(IssuerKeys.JWKS));

        Refusal unknown = refusal(claimsToken(Jws.rs256(), "k3"));
        assertEquals(Refusal.Reason.INVALID_TOKEN, unknown.reason());
        assertEquals("the token is not valid: it names a key (kid k3) the service account issuer does not have",
                unknown.getMessage());
        assertEquals(2, server.requests(IssuerKeys.JWKS), "no fetch within " + spacing);
        assertEquals(0, server.requests("/apis/authentication.k8s.io/v1/tokenreviews"));
    }

    @Test
    void whileTheKeysCannotBeHadTokensAreReviewed() throws Exception {
        server.discoveryStatus = 403;
        IssuerKeys keys = started();
        Eventually.awaitTrue(WAIT, "the first fetch is refused", () -> server.requests(IssuerKeys.DISCOVERY) == 1);
        assertNull(keys.held());
        assertEquals(new BoundPod("ns", "reviewed", "uid-r", "", ""), pod(claimsToken(issuer, "k1")));
        assertEquals(1, server.requests("/apis/authentication.k8s.io/v1/tokenreviews"));
        // a container's token: the review is asked for its audience too, and grants the container's view
        Map<String, Object> containers = TokenVerifierTest.claims(Instant.now());
        containers.put("aud", List.of(TokenVerifierTest.AUDIENCE + "/app"));
        assertEquals(new BoundPod("ns", "reviewed", "uid-r", "", "app"), pod(issuer.sign("k1", containers)));
        assertEquals(2, server.requests("/apis/authentication.k8s.io/v1/tokenreviews"));
        assertEquals(0, server.requests(IssuerKeys.JWKS));

        // the keys come: from the next retry on, tokens are verified here
        server.discoveryStatus = 200;
        server.publish(issuer.jwk("k1"));
        Eventually.awaitTrue(Duration.ofSeconds(IssuerKeys.RETRY.toSeconds() + 10), "the keys are fetched again",
                () -> keys.held() != null);
        assertEquals(READER, pod(claimsToken(issuer, "k1")));
        assertEquals(2, server.requests("/apis/authentication.k8s.io/v1/tokenreviews"));
    }

    @Test
    void aKeyNotHeldWhileTheKeysCannotBeFetchedIsUnavailableNotInvalid() throws Exception {
        server.publish(issuer.jwk("k1"));
        Duration spacing = Duration.ofSeconds(2);
        IssuerKeys keys = started(spacing);
        Eventually.awaitTrue(WAIT, "the keys are fetched at start", () -> keys.held() != null);
        server.jwksStatus = 503;
        now.addAndGet(spacing.toNanos()); // the spacing has passed
        assertEquals(Refusal.Reason.UNAVAILABLE, refusal(claimsToken(Jws.rs256(), "k2")).reason());
        assertEquals(Refusal.Reason.UNAVAILABLE, refusal(claimsToken(Jws.rs256(), "k3")).reason(),
                "within the spacing, the last fetch's failure");
        assertEquals(2, server.requests(IssuerKeys.JWKS));
        assertNotNull(keys.held(), "a failed fetch keeps the keys held");
        assertEquals(READER, pod(claimsToken(issuer, "k1")));
    }

    static NodeConfig config() {
        return new NodeConfig() {
            @Override
            public Optional<String> name() {
                return Optional.of("node-a");
            }

            @Override
            public String audience() {
                return TokenVerifierTest.AUDIENCE;
            }

            @Override
            public Duration lookupTimeout() {
                return Duration.ofSeconds(2);
            }

            @Override
            public Duration tokenCacheTtl() {
                return Duration.ofSeconds(10);
            }

            @Override
            public int tokenCacheSize() {
                return 16;
            }
        };
    }
}
