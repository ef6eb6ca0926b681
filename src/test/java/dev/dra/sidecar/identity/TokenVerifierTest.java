package dev.dra.sidecar.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.testsupport.Jws;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@link TokenVerifier} on tokens signed here with keys of the test's own: what a projected token of the API server
 * holds is accepted (RS256 and ES256), and each check refuses what breaks it as {@code invalid-token}, with the times
 * checked to the second around {@link TokenVerifier#CLOCK_SKEW}.
 */
class TokenVerifierTest {

    static final String ISSUER = "https://kubernetes.default.svc";
    static final String AUDIENCE = "dra-metadata-sidecar";
    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    private static final long SKEW = TokenVerifier.CLOCK_SKEW.toSeconds();

    private final Jws rsa = Jws.rs256();
    private final Jws ec = Jws.es256();
    private final IssuerKeys.Keys keys = IssuerKeys.keys(new ObjectMapper().valueToTree(Map.of("issuer", ISSUER)),
            new ObjectMapper().valueToTree(Map.of("keys", List.of(rsa.jwk("rsa-1"), ec.jwk("ec-1")))));

    /** The claims of a projected token of pod {@code ns/reader} (UID {@code uid-1}) on node {@code node-a}. */
    static Map<String, Object> claims(Instant now) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("aud", List.of(AUDIENCE));
        claims.put("exp", now.getEpochSecond() + 600);
        claims.put("iat", now.getEpochSecond());
        claims.put("iss", ISSUER);
        claims.put("jti", "0b4c1c2e");
        claims.put("kubernetes.io", Map.of("namespace", "ns", "node", Map.of("name", "node-a"),
                "pod", Map.of("name", "reader", "uid", "uid-1"),
                "serviceaccount", Map.of("name", "app", "uid", "sa-uid")));
        claims.put("nbf", now.getEpochSecond());
        claims.put("sub", "system:serviceaccount:ns:app");
        return claims;
    }

    private static Map<String, Object> claims(Consumer<Map<String, Object>> change) {
        Map<String, Object> claims = claims(NOW);
        change.accept(claims);
        return claims;
    }

    private BoundPod verify(String token, Instant at) {
        return new TokenVerifier(AUDIENCE, Clock.fixed(at, ZoneOffset.UTC)).verify(Jwt.parse(token), keys);
    }

    private BoundPod verify(String token) {
        return verify(token, NOW);
    }

    private void refused(String token, Instant at, String why) {
        Refusal refusal = assertThrows(Refusal.class, () -> verify(token, at));
        assertEquals(Refusal.Reason.INVALID_TOKEN, refusal.reason());
        assertTrue(refusal.getMessage().contains(why), refusal.getMessage());
    }

    private void refused(String token, String why) {
        refused(token, NOW, why);
    }

    @Test
    void aProjectedTokenSignedByAnIssuerKeySaysItsPodRs256AndEs256() {
        BoundPod pod = new BoundPod("ns", "reader", "uid-1", "node-a", "");
        assertEquals(pod, verify(rsa.sign("rsa-1", claims(NOW))));
        assertEquals(pod, verify(ec.sign("ec-1", claims(NOW))));
        assertEquals(new BoundPod("ns", "reader", "uid-1", "", ""), verify(rsa.sign("rsa-1", claims(c -> {
            c.put("aud", AUDIENCE); // a single audience may be a string
            c.put("kubernetes.io", Map.of("namespace", "ns", "pod", Map.of("name", "reader", "uid", "uid-1")));
        }))), "a token minted before the pod had a node names none");
    }

    @Test
    void aSignatureThatIsNotTheIssuersIsRefused() {
        Jws forger = Jws.rs256();
        refused(forger.sign("rsa-1", claims(NOW)), "signature");
        refused(Jws.es256().sign("ec-1", claims(NOW)), "signature");
        String genuine = rsa.sign("rsa-1", claims(NOW));
        refused(Jws.withClaims(genuine, claims(c -> c.put("kubernetes.io", Map.of("namespace", "ns",
                "pod", Map.of("name", "other", "uid", "uid-2"))))), "signature");
        // an EC signature checked against the RSA key of the kid it names, and the other way round
        refused(ec.sign("rsa-1", claims(NOW)), "signature");
        refused(rsa.sign(Map.of("alg", "ES256", "kid", "ec-1"), claims(NOW)), "signature");
        String cut = genuine.substring(0, genuine.lastIndexOf('.') + 1);
        refused(cut, "signature");
    }

    @Test
    void onlyTheAlgorithmsTheIssuerSignsWithAreTaken() {
        String claims = Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"iss\":\"https://kubernetes.default.svc\"}".getBytes(StandardCharsets.UTF_8));
        refused(Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\"}".getBytes(
                StandardCharsets.UTF_8)) + "." + claims + ".", "algorithm is none");
        refused(rsa.sign(Map.of("alg", "HS256", "kid", "rsa-1"), claims(NOW)), "algorithm is HS256");
        refused(rsa.sign(Map.of("alg", "RS256", "kid", "rsa-1", "crit", List.of("exp")), claims(NOW)), "critical");
    }

    @Test
    void theIssuerAndTheAudienceMustBeTheAgents() {
        refused(rsa.sign("rsa-1", claims(c -> c.put("iss", "https://elsewhere.example"))), "issuer");
        refused(rsa.sign("rsa-1", claims(c -> c.put("aud", List.of("https://kubernetes.default.svc")))),
                "audience " + AUDIENCE);
        refused(rsa.sign("rsa-1", claims(c -> c.remove("aud"))), "audience");
        refused(rsa.sign("rsa-1", claims(c -> c.put("aud", List.of(AUDIENCE + "/")))), "audience");
        refused(rsa.sign("rsa-1", claims(c -> c.put("aud", List.of(AUDIENCE + "-other/app")))), "audience");
    }

    @Test
    void aContainersAudienceNamesTheContainerAndWinsOverTheAgentsOwn() {
        assertEquals(new BoundPod("ns", "reader", "uid-1", "node-a", "app"),
                verify(rsa.sign("rsa-1", claims(c -> c.put("aud", AUDIENCE + "/app")))));
        assertEquals("app", verify(rsa.sign("rsa-1", claims(c -> c.put("aud",
                List.of("https://kubernetes.default.svc", AUDIENCE, AUDIENCE + "/app"))))).container());
        assertEquals("", verify(rsa.sign("rsa-1", claims(c -> c.put("aud",
                List.of("https://kubernetes.default.svc", AUDIENCE))))).container(), "the pod's view");
    }

    @Test
    void expiryAndNotBeforeAreCheckedWithTheClockSkew() {
        String token = rsa.sign("rsa-1", claims(NOW));
        Instant expiry = NOW.plusSeconds(600);
        assertEquals("reader", verify(token, expiry.plusSeconds(SKEW)).name());
        refused(token, expiry.plusSeconds(SKEW + 1), "expired at " + expiry);
        assertEquals("reader", verify(token, NOW.minusSeconds(SKEW)).name());
        refused(token, NOW.minusSeconds(SKEW + 1), "not valid before " + NOW);
        refused(rsa.sign("rsa-1", claims(c -> c.remove("exp"))), "no expiry");
        // iat alone, without nbf, is checked the same way
        String issued = rsa.sign("rsa-1", claims(c -> c.remove("nbf")));
        refused(issued, NOW.minusSeconds(SKEW + 1), "(iat)");
    }

    @Test
    void aTokenNotBoundToAPodOfItsServiceAccountsNamespaceIsRefused() {
        refused(rsa.sign("rsa-1", claims(c -> c.put("kubernetes.io", Map.of("namespace", "ns",
                "serviceaccount", Map.of("name", "app", "uid", "sa-uid"))))), "bound to a pod");
        refused(rsa.sign("rsa-1", claims(c -> c.put("sub", "system:serviceaccount:other:app"))), "bound to a pod");
        refused(rsa.sign("rsa-1", claims(c -> c.remove("kubernetes.io"))), "bound to a pod");
    }

    @Test
    void whatIsNoJsonWebTokenIsRefused() {
        for (String token : List.of("not-a-token", "a.b", "a.b.c.d", "%%%.e30.", "e30.W10.")) {
            Refusal refusal = assertThrows(Refusal.class, () -> Jwt.parse(token), token);
            assertEquals(Refusal.Reason.INVALID_TOKEN, refusal.reason());
        }
        String twice = Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"alg\":\"RS256\",\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8));
        assertThrows(Refusal.class, () -> Jwt.parse(twice + ".e30."), "a header naming alg twice");
    }
}
