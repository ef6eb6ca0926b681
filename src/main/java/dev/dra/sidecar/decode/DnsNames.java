package dev.dra.sidecar.decode;

import dev.dra.sidecar.decode.gojson.GoUnicode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Kubernetes' DNS-1123 name formats, used to validate files and the names in request paths. Names are matched
 * by a scan in linear time and constant stack, whatever their length (the regular expressions are the formats
 * as published, for clients).
 */
public final class DnsNames {

    static final String LABEL_HINT =
            "at most 63 lower case alphanumeric characters or '-', starting and ending with an alphanumeric character";
    static final String SUBDOMAIN_HINT = "at most 253 lower case alphanumeric characters, '-' or '.', "
            + "each part starting and ending with an alphanumeric character";

    /** A DNS-1123 label's format (without its length), as a regular expression that Java and ECMA-262 read alike. */
    public static final String LABEL_REGEX = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    /** A DNS-1123 subdomain's format (without its length), read alike by Java and ECMA-262. */
    public static final String SUBDOMAIN_REGEX = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
    /** {@link #SUBDOMAIN_REGEX} in any letter case (ASCII only). */
    public static final String SUBDOMAIN_CASELESS_REGEX =
            "[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)*";

    private static final IntPredicate LOWER = c -> (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    private static final IntPredicate ASCII_ANY_CASE = c -> LOWER.test(c) || (c >= 'A' && c <= 'Z');
    /**
     * A letter or digit of apimachinery's caseless subdomain, {@code (?i)} applied to {@link #SUBDOMAIN_REGEX} by
     * Go's regular expressions: a letter also matches every code point that case-folds with it (the Kelvin sign,
     * the long s) by Go's Unicode tables; the JDK's own case-insensitive matching would also take the dotted and
     * dotless I.
     */
    private static final IntPredicate GO_ANY_CASE = c -> {
        int folded = GoUnicode.foldRune(c);
        return (c >= '0' && c <= '9') || (folded >= 'A' && folded <= 'Z');
    };

    private DnsNames() {}

    /** A DNS-1123 subdomain in any letter case (ASCII only): at most 253 characters. */
    public static boolean isSubdomainInAnyCase(String s) {
        return s != null && s.length() <= 253 && matches(s, ASCII_ANY_CASE, true);
    }

    /**
     * What apimachinery's {@code content.IsDNS1123Label} says of {@code s}: one message per broken rule (the
     * length in bytes, the format), none when it is a label.
     */
    static List<String> labelProblems(String s) {
        List<String> problems = new ArrayList<>(2);
        if (utf8Length(s) > 63) {
            problems.add("must be no more than 63 characters");
        }
        if (!matches(s, LOWER, false)) {
            problems.add(matches(s, LOWER, true) ? "must not contain dots" : "must be a DNS label: " + LABEL_HINT);
        }
        return problems;
    }

    /**
     * What apimachinery's {@code content.IsDNS1123Subdomain} (or {@code IsDNS1123SubdomainCaseless}) says of
     * {@code s}: one message per broken rule, none when it is a subdomain. Caseless, a letter is any code point
     * Go's {@code (?i)} matches for it.
     */
    static List<String> subdomainProblems(String s, boolean caseless) {
        List<String> problems = new ArrayList<>(2);
        if (utf8Length(s) > 253) {
            problems.add("must be no more than 253 characters");
        }
        if (!matches(s, caseless ? GO_ANY_CASE : LOWER, true)) {
            problems.add("must be a DNS subdomain: " + SUBDOMAIN_HINT + (caseless ? " (any letter case)" : ""));
        }
        return problems;
    }

    static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** A DNS-1123 label: at most 63 characters. */
    public static boolean isLabel(String s) {
        return s != null && s.length() <= 63 && matches(s, LOWER, false);
    }

    /** A DNS-1123 subdomain: at most 253 characters. */
    public static boolean isSubdomain(String s) {
        return s != null && s.length() <= 253 && matches(s, LOWER, true);
    }

    /**
     * Whether {@code s} is one or (with {@code dots}) more labels joined by '.', each label of {@code alnum}
     * code points and '-', starting and ending with one of {@code alnum}: {@link #LABEL_REGEX} and
     * {@link #SUBDOMAIN_REGEX} with {@code alnum} for {@code [a-z0-9]}.
     */
    static boolean matches(String s, IntPredicate alnum, boolean dots) {
        int previous = '.'; // at the start of a label
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            if (c == '.') {
                if (!dots || previous == '.' || previous == '-') {
                    return false;
                }
            } else if (c == '-') {
                if (previous == '.') {
                    return false;
                }
            } else if (!alnum.test(c)) {
                return false;
            }
            previous = c;
            i += Character.charCount(c);
        }
        return previous != '.' && previous != '-';
    }
}
