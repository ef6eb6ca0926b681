package dev.dra.sidecar.decode;

import java.util.regex.Pattern;

/** Kubernetes' DNS-1123 name formats, used to validate files and the names in request paths. */
public final class DnsNames {

    static final String LABEL_HINT =
            "at most 63 lower case alphanumeric characters or '-', starting and ending with an alphanumeric character";
    static final String SUBDOMAIN_HINT = "at most 253 lower case alphanumeric characters, '-' or '.', "
            + "each part starting and ending with an alphanumeric character";

    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private DnsNames() {}

    /** A DNS-1123 label: at most 63 characters. */
    public static boolean isLabel(String s) {
        return s != null && s.length() <= 63 && LABEL.matcher(s).matches();
    }

    /** A DNS-1123 subdomain: at most 253 characters. */
    public static boolean isSubdomain(String s) {
        return s != null && s.length() <= 253 && SUBDOMAIN.matcher(s).matches();
    }
}
