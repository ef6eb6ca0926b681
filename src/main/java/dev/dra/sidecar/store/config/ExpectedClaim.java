package dev.dra.sidecar.store.config;

import dev.dra.sidecar.decode.DnsNames;
import dev.dra.sidecar.snapshot.ClaimKind;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry of {@code dra.metadata.expected-claims}: {@code claims/<claim>/<request>} or
 * {@code template-claims/<podClaimName>/<request>}, the same spelling as the API path that serves it; without the
 * {@code /<request>} part ({@code request} is {@code null}) the entry stands for the whole claim, whatever its
 * requests are called, as {@code GET /claims/<claim>} serves it.
 */
public record ExpectedClaim(ClaimKind kind, String claim, String request) {

    /**
     * Parses one entry.
     *
     * @throws IllegalArgumentException naming the entry and the expected form, so a typo in the pod spec is
     *     reported at startup instead of leaving the probe DOWN forever
     */
    public static ExpectedClaim parse(String entry) {
        String[] parts = entry.trim().split("/", -1);
        ClaimKind kind = parts.length == 2 || parts.length == 3 ? ClaimKind.ofApiSegment(parts[0]) : null;
        if (kind == null) {
            throw invalid(entry, "it must have the form claims/<claim>[/<request>] or "
                    + "template-claims/<podClaimName>[/<request>]");
        }
        if (parts[1].length() > 253 || !DnsNames.isSubdomain(parts[1])) {
            throw invalid(entry, (kind == ClaimKind.CLAIM ? "the claim name" : "the pod claim name")
                    + " '" + parts[1] + "' is not a DNS-1123 subdomain (lower case letters, digits, '-' and '.')");
        }
        if (parts.length == 2) {
            return new ExpectedClaim(kind, parts[1], null);
        }
        if (parts[2].length() > 63 || !DnsNames.isLabel(parts[2])) {
            throw invalid(entry, "the request name '" + parts[2]
                    + "' is not a DNS-1123 label (at most 63 lower case letters, digits and '-')");
        }
        return new ExpectedClaim(kind, parts[1], parts[2]);
    }

    /** Parses every entry; blank entries (a trailing comma) are skipped. */
    public static List<ExpectedClaim> parseAll(List<String> entries) {
        List<ExpectedClaim> out = new ArrayList<>();
        for (String entry : entries) {
            if (!entry.isBlank()) {
                out.add(parse(entry));
            }
        }
        return List.copyOf(out);
    }

    private static IllegalArgumentException invalid(String entry, String why) {
        return new IllegalArgumentException("dra.metadata.expected-claims (DRA_METADATA_EXPECTED_CLAIMS): entry '"
                + entry + "' is invalid: " + why);
    }

    @Override
    public String toString() {
        return kind.apiSegment() + "/" + claim + (request == null ? "" : "/" + request);
    }
}
