package dev.dra.sidecar.identity;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dra.sidecar.snapshot.ClaimKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the agent keeps of one pod of its node: who it is, where it is reached, and its claims.
 *
 * @param addresses {@code status.podIPs} (and {@code status.podIP})
 * @param claims the claims its containers see, by the name they see them by
 * @param extended its extended resources, by container and resource name, in spec order
 * @param unmapped pod claim names of template claims that have no generated claim in the status yet
 * @param containers its containers and init containers, each with the claims it lists
 */
public record PodInfo(String namespace, String name, String uid, String nodeName, boolean hostNetwork,
        Set<String> addresses, List<Claim> claims, List<ExtendedResource> extended, List<String> unmapped,
        List<Container> containers) {

    /**
     * One claim of the pod.
     *
     * @param directory the name its containers see it by: the claim's name, or the pod's claim name for a template
     * @param claim the ResourceClaim's name
     */
    public record Claim(ClaimKind kind, String directory, String claim) {}

    /** One extended resource of a container, and the claim and request that serve it. */
    public record ExtendedResource(String container, String resource, String claim, String request) {}

    /**
     * A container or init container and what the kubelet mounts into it: the claims it lists in
     * {@code resources.claims} and its extended resources' claim.
     *
     * @param claims per claim it sees, the requests it lists of it; an empty set when it lists the whole claim
     */
    public record Container(String name, Map<Claim, Set<String>> claims) {}

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
        Map<String, Claim> byPodClaimName = new HashMap<>();
        List<String> unmapped = new ArrayList<>();
        for (JsonNode claim : spec.path("resourceClaims")) {
            String podClaimName = claim.path("name").asText();
            Claim known = null;
            if (!claim.path("resourceClaimName").asText("").isEmpty()) {
                String name = claim.path("resourceClaimName").asText();
                known = new Claim(ClaimKind.CLAIM, name, name);
            } else if (!claim.path("resourceClaimTemplateName").asText("").isEmpty()) {
                String name = generated.getOrDefault(podClaimName, "");
                if (name.isEmpty()) {
                    unmapped.add(podClaimName);
                } else {
                    known = new Claim(ClaimKind.TEMPLATE_CLAIM, podClaimName, name);
                }
            }
            if (known != null) {
                claims.add(known);
                byPodClaimName.put(podClaimName, known);
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
        List<Container> containers = new ArrayList<>();
        for (String list : List.of("containers", "initContainers")) {
            spec.path(list).forEach(c -> containers.add(container(c, byPodClaimName, extended)));
        }
        return new PodInfo(meta.path("namespace").asText(), meta.path("name").asText(), meta.path("uid").asText(),
                spec.path("nodeName").asText(""), spec.path("hostNetwork").asBoolean(false), Set.copyOf(addresses),
                List.copyOf(claims), List.copyOf(extended), List.copyOf(unmapped), List.copyOf(containers));
    }

    /**
     * What the kubelet mounts into {@code container}: each claim its {@code resources.claims} names by pod claim name
     * (one request of it, or the whole claim when an entry names no request), and the requests of its extended
     * resources. A template claim not generated yet is left out until it is.
     */
    private static Container container(JsonNode container, Map<String, Claim> byPodClaimName,
            List<ExtendedResource> extended) {
        String name = container.path("name").asText();
        Map<Claim, Set<String>> requests = new LinkedHashMap<>();
        Set<Claim> whole = new HashSet<>();
        for (JsonNode listed : container.path("resources").path("claims")) {
            Claim claim = byPodClaimName.get(listed.path("name").asText());
            if (claim != null) {
                String request = listed.path("request").asText("");
                requests.computeIfAbsent(claim, c -> new TreeSet<>()).add(request);
                if (request.isEmpty()) {
                    whole.add(claim);
                }
            }
        }
        for (ExtendedResource resource : extended) {
            if (resource.container().equals(name)) {
                requests.computeIfAbsent(new Claim(ClaimKind.CLAIM, resource.claim(), resource.claim()),
                        c -> new TreeSet<>()).add(resource.request());
            }
        }
        Map<Claim, Set<String>> out = new LinkedHashMap<>();
        requests.forEach((claim, listed) -> out.put(claim, whole.contains(claim) ? Set.of() : Set.copyOf(listed)));
        return new Container(name, Collections.unmodifiableMap(out));
    }

    /** The container or init container named {@code name}, if the pod has one. */
    public Container container(String name) {
        for (Container container : containers) {
            if (container.name().equals(name)) {
                return container;
            }
        }
        return null;
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
