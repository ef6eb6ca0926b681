package dev.dra.sidecar.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;
import java.time.LocalDateTime;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;

/**
 * Kubernetes {@code metav1.Time}: an RFC 3339 string, re-encoded in UTC with second precision. Go rejects
 * anything else (a number, a malformed date), so we do too; that keeps a bad timestamp an invalid object.
 *
 * <p>Parsing follows Go's {@code time.Parse(time.RFC3339, s)} exactly, not {@code java.time}'s ISO parser,
 * which also accepts lower-case {@code t}/{@code z}, a missing seconds field, offsets with seconds and years
 * beyond four digits (all refused by Go) and refuses offsets beyond 18 hours and a comma before the fraction
 * (accepted by Go).
 */
public final class KubernetesTime {

    private KubernetesTime() {}

    /** The Go encoding of an RFC 3339 timestamp: UTC, whole seconds. */
    public static String normalize(String rfc3339) {
        GoLayoutParser p = new GoLayoutParser(rfc3339);
        int year = p.digits(4, 4);
        p.literal('-');
        int month = p.digits(2, 2);
        p.literal('-');
        int day = p.digits(2, 2);
        p.literal('T');
        int hour = p.digits(1, 2); // Go's stdHour takes one or two digits
        p.literal(':');
        int minute = p.digits(2, 2);
        p.literal(':');
        int second = p.digits(2, 2);
        p.fraction();
        int offsetSeconds = p.zone();
        p.end();
        if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59
                || day < 1 || day > YearMonth.of(year, month).lengthOfMonth()) {
            throw new DateTimeParseException("value out of range", rfc3339, 0);
        }
        LocalDateTime utc = LocalDateTime.of(year, month, day, hour, minute, second).minusSeconds(offsetSeconds);
        // Go writes the year with at least four digits and a '-' sign when negative, never a '+'
        int y = utc.getYear();
        return (y < 0 ? "-" : "") + String.format("%04d-%02d-%02dT%02d:%02d:%02dZ", Math.abs(y), utc.getMonthValue(),
                utc.getDayOfMonth(), utc.getHour(), utc.getMinute(), utc.getSecond());
    }

    /** The steps of Go's layout parser for {@code 2006-01-02T15:04:05Z07:00}. */
    private static final class GoLayoutParser {
        private final String s;
        private int i;

        GoLayoutParser(String s) {
            this.s = s;
        }

        int digits(int min, int max) {
            int start = i;
            while (i < s.length() && i - start < max && isDigit(s.charAt(i))) {
                i++;
            }
            if (i - start < min) {
                throw bad();
            }
            return Integer.parseInt(s, start, i, 10);
        }

        void literal(char c) {
            if (i >= s.length() || s.charAt(i) != c) {
                throw bad();
            }
            i++;
        }

        /** Go accepts a fraction of any length after the seconds, after a '.' or a ','. */
        void fraction() {
            if (i + 1 < s.length() && (s.charAt(i) == '.' || s.charAt(i) == ',') && isDigit(s.charAt(i + 1))) {
                i += 2;
                while (i < s.length() && isDigit(s.charAt(i))) {
                    i++;
                }
            }
        }

        /** {@code Z} or {@code ±hh:mm}; Go allows up to 24 hours and 60 minutes. */
        int zone() {
            if (i < s.length() && s.charAt(i) == 'Z') {
                i++;
                return 0;
            }
            if (s.length() - i < 6 || s.charAt(i + 3) != ':') {
                throw bad();
            }
            char sign = s.charAt(i);
            i++;
            int hh = digits(2, 2);
            i++; // the ':'
            int mm = digits(2, 2);
            if ((sign != '+' && sign != '-') || hh > 24 || mm > 60) {
                throw bad();
            }
            int offset = (hh * 60 + mm) * 60;
            return sign == '-' ? -offset : offset;
        }

        void end() {
            if (i != s.length()) {
                throw bad();
            }
        }

        private DateTimeParseException bad() {
            return new DateTimeParseException("not an RFC 3339 time", s, i);
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }
    }

    public static final class Deserializer extends StdDeserializer<String> {
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
            } catch (DateTimeParseException e) {
                return (String) ctxt.handleWeirdStringValue(String.class, p.getText(), "not an RFC 3339 time");
            }
        }
    }
}
