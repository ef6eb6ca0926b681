package dev.dra.sidecar.decode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Kubernetes' DNS-1123 name formats, used to validate files and the names in request paths. */
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

    private static final Pattern LABEL = Pattern.compile(LABEL_REGEX);
    private static final Pattern SUBDOMAIN = Pattern.compile(SUBDOMAIN_REGEX);

    private static final Pattern SUBDOMAIN_CASELESS = Pattern.compile(SUBDOMAIN_CASELESS_REGEX);

    private DnsNames() {}

    /** A DNS-1123 subdomain in any letter case (ASCII only): at most 253 characters. */
    public static boolean isSubdomainInAnyCase(String s) {
        return s != null && s.length() <= 253 && SUBDOMAIN_CASELESS.matcher(s).matches();
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
        if (!LABEL.matcher(s).matches()) {
            problems.add(SUBDOMAIN.matcher(s).matches() ? "must not contain dots" : "must be a DNS label: " + LABEL_HINT);
        }
        return problems;
    }

    /**
     * What apimachinery's {@code content.IsDNS1123Subdomain} (or {@code IsDNS1123SubdomainCaseless}) says of
     * {@code s}: one message per broken rule, none when it is a subdomain.
     */
    static List<String> subdomainProblems(String s, boolean caseless) {
        List<String> problems = new ArrayList<>(2);
        if (utf8Length(s) > 253) {
            problems.add("must be no more than 253 characters");
        }
        if (!(caseless ? SUBDOMAIN_CASELESS : SUBDOMAIN).matcher(s).matches()) {
            problems.add("must be a DNS subdomain: " + SUBDOMAIN_HINT + (caseless ? " (any letter case)" : ""));
        }
        return problems;
    }

    static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** A DNS-1123 label: at most 63 characters. */
    public static boolean isLabel(String s) {
        return s != null && s.length() <= 63 && LABEL.matcher(s).matches();
    }

    /** A DNS-1123 subdomain: at most 253 characters. */
    public static boolean isSubdomain(String s) {
        return s != null && s.length() <= 253 && SUBDOMAIN.matcher(s).matches();
    }
}
