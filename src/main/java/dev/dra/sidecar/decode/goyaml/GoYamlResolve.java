package dev.dra.sidecar.decode.goyaml;

import java.math.BigInteger;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * go-yaml v2's {@code resolve} ({@code resolve.go}) and {@code decoder.scalar}'s use of it for an
 * {@code interface{}}: the Go value of a scalar, as a Java value: {@link String}, {@link Boolean}, {@link Long}
 * (Go's {@code int}), {@link BigInteger} (a {@code uint64}), {@link Double}, or {@link #NIL}. A timestamp stays
 * the string it is, as go-yaml leaves it in an {@code interface{}}.
 */
final class GoYamlResolve {

    /** Go's {@code nil} as a value that is kept (a plain {@code Null}, unlike {@code null}, which is left out). */
    static final Object NIL = new Object() {
        @Override
        public String toString() {
            return "nil";
        }
    };

    static final String PREFIX = "tag:yaml.org,2002:";
    private static final String STR = PREFIX + "str";
    private static final String BINARY = PREFIX + "binary";
    private static final String INT = PREFIX + "int";
    private static final String FLOAT = PREFIX + "float";
    private static final Pattern YAML_FLOAT = Pattern.compile("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
    private static final Map<String, Object> KNOWN = known();

    private GoYamlResolve() {}

    private static Map<String, Object> known() {
        Map<String, Object> m = new java.util.HashMap<>();
        for (String s : new String[] {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}) {
            m.put(s, Boolean.TRUE);
        }
        for (String s : new String[] {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}) {
            m.put(s, Boolean.FALSE);
        }
        for (String s : new String[] {"", "~", "null", "Null", "NULL"}) {
            m.put(s, NIL);
        }
        for (String s : new String[] {".nan", ".NaN", ".NAN"}) {
            m.put(s, Double.NaN);
        }
        for (String s : new String[] {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}) {
            m.put(s, Double.POSITIVE_INFINITY);
        }
        for (String s : new String[] {"-.inf", "-.Inf", "-.INF"}) {
            m.put(s, Double.NEGATIVE_INFINITY);
        }
        return m;
    }

    /**
     * The value of a scalar with tag {@code tag} ("" for none; {@code implicit} when plain or tagged {@code !}).
     *
     * @throws GoYamlError what {@code failf} says of a value its explicit tag refuses
     */
    static Object scalar(String tag, String value, boolean implicit) {
        if (tag.isEmpty() && !implicit || tag.equals(STR)) {
            return value;
        }
        if (tag.equals(BINARY)) {
            String data = value.replace("\r", "").replace("\n", ""); // base64.StdEncoding skips them
            try {
                if (data.length() % 4 == 0) { // and wants the padding, which Java's decoder does not
                    Base64.getDecoder().decode(data);
                    return value;
                }
            } catch (IllegalArgumentException e) {
                // as below
            }
            throw GoYamlError.decoder("!!binary value contains invalid base64 data");
        }
        if (!tag.isEmpty() && !(tag.equals(INT) || tag.equals(FLOAT) || tag.equals(PREFIX + "bool")
                || tag.equals(PREFIX + "null"))) {
            if (tag.equals(PREFIX + "timestamp")) {
                throw new GoYamlTokens.Unsupported("!!timestamp");
            }
            return value; // not resolvable: the string as it is
        }
        Object resolved = implicitValue(value);
        String rtag = tagOf(resolved);
        if (tag.isEmpty() || tag.equals(rtag)) {
            return resolved;
        }
        if (tag.equals(FLOAT) && resolved instanceof Long l) {
            return (double) l;
        }
        throw GoYamlError.decoder("cannot decode " + shortTag(rtag) + " `" + value + "` as a " + shortTag(tag));
    }

    private static String tagOf(Object v) {
        return v == NIL ? PREFIX + "null" : v instanceof Boolean ? PREFIX + "bool"
                : v instanceof Long || v instanceof BigInteger ? INT : v instanceof Double ? FLOAT : STR;
    }

    private static String shortTag(String tag) {
        return tag.startsWith(PREFIX) ? "!!" + tag.substring(PREFIX.length()) : tag;
    }

    /** {@code resolve("", in)}. */
    private static Object implicitValue(String in) {
        char hint = in.isEmpty() ? 'N' : in.charAt(0);
        boolean digitOrSign = hint >= '0' && hint <= '9' || hint == '+' || hint == '-';
        if (!(digitOrSign || hint == '.' || "yYnNtTfFoO~N".indexOf(hint) >= 0)) {
            return in;
        }
        Object known = KNOWN.get(in);
        if (known != null) {
            return known;
        }
        if (hint == '.') {
            return YAML_FLOAT.matcher(in).matches() ? finite(Double.parseDouble(in), in) : in;
        }
        if (!digitOrSign) {
            return in;
        }
        String plain = in.replace("_", "");
        Object number = integer(plain, 0, true);
        if (number == null) {
            number = integer(plain, 0, false);
        }
        if (number == null && YAML_FLOAT.matcher(plain).matches()) {
            number = finite(Double.parseDouble(plain), null);
        }
        if (number == null && plain.startsWith("0b")) {
            number = integer(plain.substring(2), 2, true);
            number = number != null ? number : integer(plain.substring(2), 2, false);
        } else if (number == null && plain.startsWith("-0b")) {
            number = integer("-" + plain.substring(3), 2, true);
        }
        return number != null ? number : in;
    }

    private static Object finite(double d, Object otherwise) {
        return Double.isInfinite(d) ? otherwise : (Object) d;
    }

    /**
     * Go's {@code strconv.ParseInt(s, base, 64)} ({@code signed}) or {@code ParseUint}: a {@link Long} or, for an
     * unsigned value past int64, a {@link BigInteger}; null when Go fails. Base 0 reads the prefixes
     * {@code 0x}, {@code 0o}, {@code 0b} and a leading {@code 0} (octal).
     */
    private static Object integer(String s, int base, boolean signed) {
        boolean negative = false;
        if (signed && !s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-')) {
            negative = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (base == 0) {
            base = 10;
            if (s.length() > 1 && s.charAt(0) == '0') {
                char p = Character.toLowerCase(s.charAt(1));
                base = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 8;
                s = p == 'x' || p == 'o' || p == 'b' ? s.substring(2) : s.substring(1);
            }
        }
        if (s.isEmpty()) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            if (Character.digit(s.charAt(i), base) < 0 || s.charAt(i) > 'z') {
                return null;
            }
        }
        BigInteger v = new BigInteger(s, base);
        v = negative ? v.negate() : v;
        if (signed) {
            return v.bitLength() < 64 ? (Object) v.longValue() : null;
        }
        return v.bitLength() <= 64 ? (v.bitLength() < 64 ? (Object) v.longValue() : v) : null;
    }
}
