package dev.dra.sidecar.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.YearMonth;

/**
 * Kubernetes {@code metav1.Time}: an RFC 3339 string, re-encoded in UTC with second precision. Go rejects
 * anything else (a number, a malformed date), so we do too; that keeps a bad timestamp an invalid object.
 *
 * <p>Parsing follows Go's {@code time.Parse(time.RFC3339, s)} step for step, not {@code java.time}'s ISO
 * parser: what it accepts (a one-digit hour, a comma before the fraction, offsets up to 24:60), what it
 * refuses (lower-case {@code t}/{@code z}, a missing seconds field, offsets with seconds, years beyond four
 * digits) and the words of its {@code time.ParseError}.
 */
public final class KubernetesTime {

    static final String LAYOUT = "2006-01-02T15:04:05Z07:00";

    private KubernetesTime() {}

    /** A value Go's {@code time.Parse} refuses; the message is Go's {@code ParseError} text. */
    public static final class InvalidTime extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        InvalidTime(String message) {
            super(message, null);
        }
    }

    /**
     * The Go encoding of an RFC 3339 timestamp: UTC, whole seconds.
     *
     * @throws InvalidTime if Go's {@code time.Parse(time.RFC3339, value)} fails, with Go's message
     */
    public static String normalize(String value) {
        GoLayoutParser p = new GoLayoutParser(value);
        int year = p.year();
        p.literal("-");
        int month = p.number("01", true);
        p.range(month < 1 || month > 12, "month");
        p.literal("-");
        int day = p.number("02", true);
        p.literal("T");
        int hour = p.number("15", false);
        p.range(hour > 23, "hour");
        p.literal(":");
        int minute = p.number("04", true);
        p.range(minute > 59, "minute");
        p.literal(":");
        int second = p.number("05", true);
        p.range(second > 59, "second");
        p.fraction();
        int offsetSeconds = p.zone();
        p.end();
        if (day < 1 || day > YearMonth.of(year, month).lengthOfMonth()) {
            throw p.error(": day out of range");
        }
        LocalDateTime utc = LocalDateTime.of(year, month, day, hour, minute, second).minusSeconds(offsetSeconds);
        // Go writes the year with at least four digits and a '-' sign when negative, never a '+'
        int y = utc.getYear();
        return (y < 0 ? "-" : "") + String.format("%04d-%02d-%02dT%02d:%02d:%02dZ", Math.abs(y), utc.getMonthValue(),
                utc.getDayOfMonth(), utc.getHour(), utc.getMinute(), utc.getSecond());
    }

    /** The steps of Go's layout parser for {@code 2006-01-02T15:04:05Z07:00}, failing as Go fails. */
    private static final class GoLayoutParser {
        private final String s;
        private int i;

        GoLayoutParser(String s) {
            this.s = s;
        }

        /** {@code 2006}: exactly four characters, the first a digit, all digits. */
        int year() {
            if (s.length() - i < 4 || !isDigit(i)) {
                throw cannotParse(rest(), "2006");
            }
            for (int k = i; k < i + 4; k++) {
                if (!isDigit(k)) {
                    throw cannotParse(rest(), "2006");
                }
            }
            i += 4;
            return Integer.parseInt(s, i - 4, i, 10);
        }

        /** Go's {@code getnum}: one or two digits; two required when {@code fixed}. */
        int number(String layoutElem, boolean fixed) {
            if (!isDigit(i)) {
                throw cannotParse(rest(), layoutElem);
            }
            if (!isDigit(i + 1)) {
                if (fixed) {
                    throw cannotParse(rest(), layoutElem);
                }
                i += 1;
                return s.charAt(i - 1) - '0';
            }
            i += 2;
            return Integer.parseInt(s, i - 2, i, 10);
        }

        void range(boolean outOfRange, String what) {
            if (outOfRange) {
                throw error(": " + what + " out of range");
            }
        }

        void literal(String prefix) {
            if (!s.startsWith(prefix, i)) {
                throw cannotParse(rest(), prefix);
            }
            i += prefix.length();
        }

        /** A fraction of any length after the seconds, after a '.' or a ',' (not in the layout; Go allows it). */
        void fraction() {
            if (i + 1 < s.length() && (s.charAt(i) == '.' || s.charAt(i) == ',') && isDigit(i + 1)) {
                i += 2;
                while (isDigit(i)) {
                    i++;
                }
            }
        }

        /** {@code Z} or {@code ±hh:mm}; Go allows up to 24 hours and 60 minutes. */
        int zone() {
            String hold = rest();
            if (i < s.length() && s.charAt(i) == 'Z') {
                i++;
                return 0;
            }
            if (s.length() - i < 6 || s.charAt(i + 3) != ':') {
                throw cannotParse(hold, "Z07:00");
            }
            char sign = s.charAt(i);
            boolean hourDigits = isDigit(i + 1) && isDigit(i + 2);
            boolean digits = hourDigits && isDigit(i + 4) && isDigit(i + 5);
            int hh = hourDigits ? Integer.parseInt(s, i + 1, i + 3, 10) : 0;
            int mm = digits ? Integer.parseInt(s, i + 4, i + 6, 10) : 0;
            i += 6;
            // Go checks both ranges before the syntax, the minute's message overriding the hour's
            range(mm > 60, "time zone offset minute");
            range(hh > 24, "time zone offset hour");
            if (!digits || (sign != '+' && sign != '-')) {
                throw cannotParse(hold, "Z07:00");
            }
            int offset = (hh * 60 + mm) * 60;
            return sign == '-' ? -offset : offset;
        }

        void end() {
            if (i != s.length()) {
                throw error(": extra text: " + quote(rest()));
            }
        }

        InvalidTime cannotParse(String valueElem, String layoutElem) {
            return new InvalidTime("parsing time " + quote(s) + " as " + quote(LAYOUT) + ": cannot parse "
                    + quote(valueElem) + " as " + quote(layoutElem));
        }

        InvalidTime error(String message) {
            return new InvalidTime("parsing time " + quote(s) + message);
        }

        private String rest() {
            return s.substring(Math.min(i, s.length()));
        }

        private boolean isDigit(int at) {
            return at < s.length() && s.charAt(at) >= '0' && s.charAt(at) <= '9';
        }

        /** Go's {@code time.quote}: printable ASCII as is (with {@code "} and {@code \} escaped), other bytes as {@code \xHH}. */
        private static String quote(String v) {
            StringBuilder out = new StringBuilder("\"");
            for (int k = 0; k < v.length(); ) {
                int c = v.codePointAt(k);
                k += Character.charCount(c);
                if (c < ' ' || c >= 0x80) {
                    for (byte b : new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8)) {
                        out.append(String.format("\\x%02x", b & 0xFF));
                    }
                } else {
                    if (c == '"' || c == '\\') {
                        out.append('\\');
                    }
                    out.append((char) c);
                }
            }
            return out.append('"').toString();
        }
    }

    /**
     * Reads a timestamp as {@code metav1.Time.UnmarshalJSON} does; a value that is not a string is a type error
     * ("into ... of type string", as Go words it), a malformed string fails with {@link InvalidTime}'s text.
     */
    public static final class Deserializer extends StdDeserializer<String> {
        private static final long serialVersionUID = 1L;

        public Deserializer() {
            super(String.class);
        }

        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_STRING) {
                return (String) ctxt.handleUnexpectedToken(String.class, p);
            }
            try {
                return normalize(p.getText());
            } catch (InvalidTime e) {
                throw new InvalidTimeException(p, e.getMessage());
            }
        }
    }

    /** The decode failure for a malformed timestamp: its original message is Go's, word for word. */
    public static final class InvalidTimeException extends JsonMappingException {
        private static final long serialVersionUID = 1L;

        InvalidTimeException(JsonParser p, String goMessage) {
            super(p, goMessage);
        }
    }
}
