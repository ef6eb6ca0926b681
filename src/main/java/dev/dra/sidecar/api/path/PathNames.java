package dev.dra.sidecar.api.path;

import dev.dra.sidecar.api.problem.ApiException;
import dev.dra.sidecar.api.problem.ProblemType;
import dev.dra.sidecar.decode.DnsNames;

/**
 * Checks the names in a request path before anything is looked up: claim and pod claim names are DNS
 * subdomains, request names DNS labels, driver names case-insensitive DNS subdomains of at most 63
 * characters (the file name is {@code <driver>-metadata.json}). No other name can reach the snapshot. The
 * {@code is*} predicates answer whether a name is valid; the others return it or throw {@code 400 invalid-name}.
 */
public final class PathNames {

    /** Device names and attribute keys are not paths to anything; bound them all the same. */
    private static final int MAX_LOOKUP_KEY = 512;

    /**
     * The rule of each path parameter, as the OpenAPI document states it: a name matches the pattern (ECMA-262)
     * and has at most {@code maxLength} characters exactly when the checks here accept it.
     */
    public enum Parameter {
        CLAIM("claim", "^" + DnsNames.SUBDOMAIN_REGEX + "$", 253),
        REQUEST("request", "^" + DnsNames.LABEL_REGEX + "$", 63),
        DRIVER("driver", "^" + DnsNames.SUBDOMAIN_CASELESS_REGEX + "$", 63),
        DEVICE("device", "^[^\\u0000-\\u001f\\u007f-\\u009f]+$", MAX_LOOKUP_KEY),
        ATTRIBUTE("attribute", "^[^\\u0000-\\u001f\\u007f-\\u009f]+$", MAX_LOOKUP_KEY),
        CONTAINER("container", "^[^\\u0000-\\u001f\\u007f-\\u009f]+$", MAX_LOOKUP_KEY),
        RESOURCE("resource", "^[^\\u0000-\\u001f\\u007f-\\u009f]+$", MAX_LOOKUP_KEY);

        public final String parameterName;
        public final String pattern;
        public final int maxLength;

        Parameter(String parameterName, String pattern, int maxLength) {
            this.parameterName = parameterName;
            this.pattern = pattern;
            this.maxLength = maxLength;
        }
    }

    private PathNames() {}

    public static boolean isClaim(String name) {
        return DnsNames.isSubdomain(name);
    }

    public static boolean isRequest(String name) {
        return DnsNames.isLabel(name);
    }

    public static boolean isDriver(String name) {
        return name != null && name.length() <= 63 && DnsNames.isSubdomainInAnyCase(name);
    }

    static String claim(String name) {
        if (!isClaim(name)) {
            throw invalid("claim name " + quote(name) + " is not a DNS subdomain (RFC 1123)");
        }
        return name;
    }

    static String request(String name) {
        if (!isRequest(name)) {
            throw invalid("request name " + quote(name) + " is not a DNS label (RFC 1123)");
        }
        return name;
    }

    static String driver(String name) {
        if (!isDriver(name)) {
            throw invalid("driver name " + quote(name) + " is not a DNS subdomain of at most 63 characters");
        }
        return name;
    }

    static String lookupKey(String what, String name) {
        if (name == null || name.isEmpty() || name.codePointCount(0, name.length()) > MAX_LOOKUP_KEY
                || name.chars().anyMatch(Character::isISOControl)) {
            throw invalid(what + " " + quote(name) + " is empty, too long or has control characters");
        }
        return name;
    }

    private static ApiException invalid(String detail) {
        return new ApiException(ProblemType.INVALID_NAME, detail);
    }

    /** Quotes a client's name for a message, cut short and without control characters. */
    public static String quote(String name) {
        if (name == null) {
            return "\"\"";
        }
        String shown = name.length() > 80 ? name.substring(0, 80) + "..." : name;
        return '"' + shown.replaceAll("\\p{Cntrl}", "?") + '"';
    }
}
