package dev.dra.sidecar.decode.goyaml;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code sigs.k8s.io/yaml} (v1.6.0) does with the value go-yaml decoded before apimachinery reads it as JSON:
 * {@code convertToJSONableObject} turns each map key into a string (a string, integer, float or bool key; any
 * other, a null or a {@code uint64}, is {@link GoYamlTokens.Unsupported}), then {@code json.Marshal} writes maps
 * in the order of their keys and fails at the first float JSON cannot hold:
 * {@code json: unsupported value: +Inf} ({@code -Inf}, {@code NaN}).
 */
final class GoYamlJson {

    private GoYamlJson() {}

    /** @throws GoYamlError the marshalling error of {@code value}, if any */
    static void check(Object value) {
        String bad = firstUnsupported(value);
        if (bad != null) {
            throw GoYamlError.json("json: unsupported value: " + bad);
        }
    }

    /** Go's order of strings: their UTF-8 bytes', which is their code points' (not their UTF-16 units'). */
    private static int compareAsUtf8(String a, String b) {
        java.util.PrimitiveIterator.OfInt i = a.codePoints().iterator();
        java.util.PrimitiveIterator.OfInt j = b.codePoints().iterator();
        while (i.hasNext() && j.hasNext()) {
            int c = Integer.compare(i.nextInt(), j.nextInt());
            if (c != 0) {
                return c;
            }
        }
        return Boolean.compare(i.hasNext(), j.hasNext());
    }

    private static String firstUnsupported(Object value) {
        if (value instanceof Double d) {
            return d.isNaN() ? "NaN" : d.isInfinite() ? (d > 0 ? "+Inf" : "-Inf") : null;
        }
        if (value instanceof List<?> items) {
            for (Object item : items) {
                String bad = firstUnsupported(item);
                if (bad != null) {
                    return bad;
                }
            }
            return null;
        }
        if (value instanceof Map<?, ?> map) {
            TreeMap<String, Object> byKey = new TreeMap<>(GoYamlJson::compareAsUtf8);
            boolean ordered = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                Object k = e.getKey();
                if (k == GoYamlResolve.NIL || k instanceof BigInteger) {
                    throw new GoYamlTokens.Unsupported("map key JSON cannot hold");
                }
                ordered &= !(k instanceof Double); // float keys are written as go-yaml formats them
                if (byKey.put(String.valueOf(k), e.getValue()) != null) {
                    throw new GoYamlTokens.Unsupported("map keys equal as strings");
                }
            }
            String found = null;
            for (Object item : byKey.values()) {
                String bad = firstUnsupported(item);
                if (bad != null && found != null && !bad.equals(found) && !ordered) {
                    throw new GoYamlTokens.Unsupported("floats JSON cannot hold under float keys");
                }
                found = found == null ? bad : found;
            }
            return found;
        }
        return null;
    }
}
