package dev.dra.sidecar.identity;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A JSON Web Token in the JWS compact serialization, as read, not verified: its header and claims (each a JSON object,
 * a name given twice refused), the text its signature is over, and the signature.
 *
 * @param header the protected header, such as {@code {"alg":"RS256","kid":"..."}}
 * @param claims the payload's claims
 * @param signed the ASCII bytes of {@code <header>.<payload>}, as sent
 * @param signature the signature's bytes
 */
record Jwt(JsonNode header, JsonNode claims, byte[] signed, byte[] signature) {

    private static final ObjectReader JSON = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).reader();

    /**
     * The token's parts.
     *
     * @throws Refusal {@link Refusal.Reason#INVALID_TOKEN} when {@code token} is no JWS of three base64url parts
     *     whose first two are JSON objects
     */
    static Jwt parse(String token) {
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) {
            throw invalid("it is not a JSON Web Token (three base64url parts joined by dots)");
        }
        try {
            Base64.Decoder decoder = Base64.getUrlDecoder();
            JsonNode header = JSON.readTree(decoder.decode(parts[0]));
            JsonNode claims = JSON.readTree(decoder.decode(parts[1]));
            if (header == null || !header.isObject() || claims == null || !claims.isObject()) {
                throw invalid("its header or claims are not a JSON object");
            }
            return new Jwt(header, claims, (parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII),
                    decoder.decode(parts[2]));
        } catch (IllegalArgumentException | IOException e) {
            throw invalid("it is not a JSON Web Token: " + e.getMessage());
        }
    }

    /** The header's {@code alg}, {@code ""} when it has none. */
    String algorithm() {
        return header.path("alg").asText("");
    }

    /** The header's {@code kid}, {@code ""} when it has none. */
    String keyId() {
        return header.path("kid").asText("");
    }

    static Refusal invalid(String why) {
        return new Refusal(Refusal.Reason.INVALID_TOKEN, "the token is not valid: " + why);
    }
}
