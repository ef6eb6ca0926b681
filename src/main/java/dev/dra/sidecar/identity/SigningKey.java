package dev.dra.sidecar.identity;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Base64;
import java.util.Optional;

/**
 * One public key of the service account issuer, from its JSON Web Key Set, and the one JWS algorithm it verifies:
 * {@code RS256} for an RSA key, {@code ES256}, {@code ES384} or {@code ES512} for an EC key on P-256, P-384 or P-521
 * (what the API server signs with for each kind of key). Verifies with the JDK's {@code java.security} only.
 *
 * @param kid the key's {@code kid}, {@code ""} when it has none
 * @param algorithm the JWS {@code alg} of the tokens it signs
 */
record SigningKey(String kid, String algorithm, PublicKey key) {

    /**
     * The key a JWK describes, or empty when it is none this class can verify with: another {@code kty} or curve, a
     * {@code use} other than {@code sig}, or an {@code alg} other than the one its kind signs with.
     *
     * @throws GeneralSecurityException when its numbers make no public key
     */
    static Optional<SigningKey> of(JsonNode jwk) throws GeneralSecurityException {
        String use = jwk.path("use").asText("sig");
        String kid = jwk.path("kid").asText("");
        String algorithm;
        PublicKey key;
        switch (jwk.path("kty").asText("")) {
            case "RSA" -> {
                algorithm = "RS256";
                key = KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(number(jwk, "n"),
                        number(jwk, "e")));
            }
            case "EC" -> {
                String curve;
                switch (jwk.path("crv").asText("")) {
                    case "P-256" -> { algorithm = "ES256"; curve = "secp256r1"; }
                    case "P-384" -> { algorithm = "ES384"; curve = "secp384r1"; }
                    case "P-521" -> { algorithm = "ES512"; curve = "secp521r1"; }
                    default -> { return Optional.empty(); }
                }
                AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
                parameters.init(new ECGenParameterSpec(curve));
                key = KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(
                        new ECPoint(number(jwk, "x"), number(jwk, "y")),
                        parameters.getParameterSpec(ECParameterSpec.class)));
            }
            default -> { return Optional.empty(); }
        }
        if (!use.equals("sig") || !jwk.path("alg").asText(algorithm).equals(algorithm)) {
            return Optional.empty();
        }
        return Optional.of(new SigningKey(kid, algorithm, key));
    }

    /** Whether {@code signature} is this key's JWS signature of {@code signed}; never throws for a bad signature. */
    boolean verifies(byte[] signed, byte[] signature) {
        try {
            Signature verifier = Signature.getInstance(switch (algorithm) {
                case "RS256" -> "SHA256withRSA";
                case "ES256" -> "SHA256withECDSAinP1363Format";
                case "ES384" -> "SHA384withECDSAinP1363Format";
                default -> "SHA512withECDSAinP1363Format";
            });
            verifier.initVerify(key);
            verifier.update(signed);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false; // a signature of the wrong length or form is no signature of this key
        }
    }

    private static BigInteger number(JsonNode jwk, String member) throws GeneralSecurityException {
        String text = jwk.path(member).asText("");
        if (text.isEmpty()) {
            throw new GeneralSecurityException("the key has no " + member);
        }
        try {
            return new BigInteger(1, Base64.getUrlDecoder().decode(text));
        } catch (IllegalArgumentException e) {
            throw new GeneralSecurityException("the key's " + member + " is not base64url", e);
        }
    }
}
