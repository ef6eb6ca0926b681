package dev.dra.sidecar.api;

import dev.dra.sidecar.decode.DnsNames;
import java.util.Locale;

/**
 * Checks the names in a request path before anything is looked up: claim and pod claim names are DNS
 * subdomains, request names DNS labels, driver names case-insensitive DNS subdomains of at most 63
 * characters (the file name is {@code <driver>-metadata.json}). No other name can reach the snapshot.
 */
final class PathNames {

    /** Device names and attribute keys are not paths to anything; bound them all the same. */
    private static final int MAX_LOOKUP_KEY = 512;

    private PathNames() {}

    static String claim(String name) {
        if (!DnsNames.isSubdomain(name)) {
            throw ApiException.invalidName("claim name " + quote(name) + " is not a DNS subdomain (RFC 1123)");
        }
        return name;
    }

    static String request(String name) {
        if (!DnsNames.isLabel(name)) {
            throw ApiException.invalidName("request name " + quote(name) + " is not a DNS label (RFC 1123)");
        }
        return name;
    }

    static String driver(String name) {
        if (name == null || name.length() > 63 || !DnsNames.isSubdomain(name.toLowerCase(Locale.ROOT))) {
            throw ApiException.invalidName("driver name " + quote(name) + " is not a DNS subdomain of at most 63 characters");
        }
        return name;
    }

    static String lookupKey(String what, String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_LOOKUP_KEY || name.chars().anyMatch(Character::isISOControl)) {
            throw ApiException.invalidName(what + " " + quote(name) + " is empty, too long or has control characters");
        }
        return name;
    }

    /** Quotes a client's name for a message, cut short and without control characters. */
    static String quote(String name) {
        if (name == null) {
            return "\"\"";
        }
        String shown = name.length() > 80 ? name.substring(0, 80) + "..." : name;
        return '"' + shown.replaceAll("\\p{Cntrl}", "?") + '"';
    }
}
