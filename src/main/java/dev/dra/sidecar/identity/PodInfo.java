package dev.dra.sidecar.identity;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dra.sidecar.snapshot.ClaimKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the agent keeps of one pod of its node: who it is, where it is reached, and its claims.
 *
 * @param addresses {@code status.podIPs} (and {@code status.podIP})
 * @param claims the claims its containers see, by the name they see them by
 * @param extended its extended resources, by container and resource name, in spec order
 * @param unmapped pod claim names of template claims that have no generated claim in the status yet
 */
public record PodInfo(String namespace, String name, String uid, String nodeName, boolean hostNetwork,
        Set<String> addresses, List<Claim> claims, List<ExtendedResource> extended, List<String> unmapped) {

    /**
     * One claim of the pod.
     *
     * @param directory the name its containers see it by: the claim's name, or the pod's claim name for a template
     * @param claim the ResourceClaim's name
     */
    public record Claim(ClaimKind kind, String directory, String claim) {}

    /** One extended resource of a container, and the claim and request that serve it. */
    public record ExtendedResource(String container, String resource, String claim, String request) {}

    static PodInfo of(JsonNode pod) {
        JsonNode meta = pod.path("metadata");
        JsonNode spec = pod.path("spec");
        JsonNode status = pod.path("status");
        Set<String> addresses = new LinkedHashSet<>();
        if (!status.path("podIP").asText("").isEmpty()) {
            addresses.add(status.path("podIP").asText());
        }
        status.path("podIPs").forEach(ip -> addresses.add(ip.path("ip").asText()));
        addresses.remove("");
        Map<String, String> generated = new HashMap<>();
        status.path("resourceClaimStatuses").forEach(s -> generated.put(s.path("name").asText(),
                s.path("resourceClaimName").asText("")));
        List<Claim> claims = new ArrayList<>();
        List<String> unmapped = new ArrayList<>();
        for (JsonNode claim : spec.path("resourceClaims")) {
            String podClaimName = claim.path("name").asText();
            if (!claim.path("resourceClaimName").asText("").isEmpty()) {
                String name = claim.path("resourceClaimName").asText();
                claims.add(new Claim(ClaimKind.CLAIM, name, name));
            } else if (!claim.path("resourceClaimTemplateName").asText("").isEmpty()) {
                String name = generated.getOrDefault(podClaimName, "");
                if (name.isEmpty()) {
                    unmapped.add(podClaimName);
                } else {
                    claims.add(new Claim(ClaimKind.TEMPLATE_CLAIM, podClaimName, name));
                }
            }
        }
        List<ExtendedResource> extended = new ArrayList<>();
        JsonNode extendedStatus = status.path("extendedResourceClaimStatus");
        String extendedClaim = extendedStatus.path("resourceClaimName").asText("");
        if (!extendedClaim.isEmpty()) {
            claims.add(new Claim(ClaimKind.CLAIM, extendedClaim, extendedClaim));
            extendedStatus.path("requestMappings").forEach(m -> extended.add(new ExtendedResource(
                    m.path("containerName").asText(), m.path("resourceName").asText(), extendedClaim,
                    m.path("requestName").asText())));
        }
        return new PodInfo(meta.path("namespace").asText(), meta.path("name").asText(), meta.path("uid").asText(),
                spec.path("nodeName").asText(""), spec.path("hostNetwork").asBoolean(false), Set.copyOf(addresses),
                List.copyOf(claims), List.copyOf(extended), List.copyOf(unmapped));
    }

    /** The pod's claim its containers see as {@code directory} under {@code kind}, if it has one. */
    public Claim claim(ClaimKind kind, String directory) {
        for (Claim claim : claims) {
            if (claim.kind() == kind && claim.directory().equals(directory)) {
                return claim;
            }
        }
        return null;
    }
}
