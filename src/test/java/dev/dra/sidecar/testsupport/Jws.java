package dev.dra.sidecar.testsupport;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * JSON Web Tokens signed here, with a key of the test's own (RS256 or ES256), as a forger or a stand-in issuer makes
 * them, and the JWK of that key; plus the parts of a token read back.
 */
public final class Jws {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String algorithm;
    private final KeyPair pair;

    private Jws(String algorithm, KeyPair pair) {
        this.algorithm = algorithm;
        this.pair = pair;
    }

    /** A new RSA 2048 key signing RS256. */
    public static Jws rs256() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return new Jws("RS256", generator.generateKeyPair());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A new EC P-256 key signing ES256. */
    public static Jws es256() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return new Jws("ES256", generator.generateKeyPair());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public String algorithm() {
        return algorithm;
    }

    /** {@code <header>.<claims>.<signature>}: the header {@code {"alg":<this key's>,"kid":kid}}, signed. */
    public String sign(String kid, Map<String, ?> claims) {
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("alg", algorithm);
        header.put("kid", kid);
        return sign(header, claims);
    }

    /** {@code <header>.<claims>.<signature>} signed with this key, whatever the header says. */
    public String sign(Map<String, ?> header, Map<String, ?> claims) {
        String signed = encode(json(header)) + "." + encode(json(claims));
        try {
            Signature signature = Signature.getInstance(algorithm.equals("RS256") ? "SHA256withRSA"
                    : "SHA256withECDSAinP1363Format");
            signature.initSign(pair.getPrivate());
            signature.update(signed.getBytes(StandardCharsets.US_ASCII));
            return signed + "." + encode(signature.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The public key as a JWK of {@code kid}, as the API server's {@code /openid/v1/jwks} lists one. */
    public Map<String, Object> jwk(String kid) {
        Map<String, Object> jwk = new LinkedHashMap<>();
        jwk.put("use", "sig");
        jwk.put("kid", kid);
        jwk.put("alg", algorithm);
        if (pair.getPublic() instanceof RSAPublicKey rsa) {
            jwk.put("kty", "RSA");
            jwk.put("n", encode(unsigned(rsa.getModulus(), 0)));
            jwk.put("e", encode(unsigned(rsa.getPublicExponent(), 0)));
        } else {
            ECPublicKey ec = (ECPublicKey) pair.getPublic();
            jwk.put("kty", "EC");
            jwk.put("crv", "P-256");
            jwk.put("x", encode(unsigned(ec.getW().getAffineX(), 32)));
            jwk.put("y", encode(unsigned(ec.getW().getAffineY(), 32)));
        }
        return jwk;
    }

    /** The decoded header ({@code part} 0) or claims (1) of a compact token. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> part(String token, int part) {
        try {
            return JSON.readValue(Base64.getUrlDecoder().decode(token.split("\\.")[part]), LinkedHashMap.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The token with its claims replaced by {@code claims}, its header and signature kept as they are. */
    public static String withClaims(String token, Map<String, ?> claims) {
        String[] parts = token.split("\\.");
        return parts[0] + "." + encode(json(claims)) + "." + parts[2];
    }

    private static byte[] json(Map<String, ?> object) {
        try {
            return JSON.writeValueAsBytes(object);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String encode(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The number's big-endian bytes without a sign byte, left-padded to {@code length} (0: as short as it is). */
    private static byte[] unsigned(BigInteger number, int length) {
        byte[] bytes = number.toByteArray();
        if (bytes.length > 1 && bytes[0] == 0) {
            bytes = Arrays.copyOfRange(bytes, 1, bytes.length);
        }
        if (bytes.length >= length) {
            return bytes;
        }
        byte[] padded = new byte[length];
        System.arraycopy(bytes, 0, padded, length - bytes.length, bytes.length);
        return padded;
    }
}
