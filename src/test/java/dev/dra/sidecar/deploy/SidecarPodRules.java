package dev.dra.sidecar.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceClaim;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** The rules every pod that carries the sidecar must follow, checked on fabric8 objects. */
final class SidecarPodRules {

    static final String SIDECAR = "dra-metadata-sidecar";
    static final String IMAGE = "ghcr.io/example/dra-metadata-sidecar";
    static final String EXPECTED_CLAIMS_ENV = "DRA_METADATA_EXPECTED_CLAIMS";
    static final int MANAGEMENT_PORT = 9000;
    /** The image's java and the hook's argument file (src/main/docker/await-started, see AwaitStarted). */
    static final List<String> AWAIT_STARTED = List.of("/opt/jre/bin/java", "@/deployments/await-started");
    private static final Pattern EXPECTED_ENTRY =
            Pattern.compile("(claims|template-claims)/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)/([a-z0-9]([-a-z0-9]*[a-z0-9])?)");

    private SidecarPodRules() {}

    /** The sidecar of a pod spec: an init container named {@value #SIDECAR}, never a regular container. */
    static Container sidecar(PodSpec pod, String where) {
        assertFalse(pod.getContainers().stream().anyMatch(c -> SIDECAR.equals(c.getName())),
                where + ": the sidecar must be a native sidecar (initContainers), not a regular container");
        List<Container> found = pod.getInitContainers().stream().filter(c -> SIDECAR.equals(c.getName())).toList();
        assertEquals(1, found.size(), where + ": exactly one init container named " + SIDECAR);
        return found.get(0);
    }

    /**
     * The container-level rules (image, native sidecar, port, hook, probes, resources, security, no volume) that also
     * hold for a patch that adds the sidecar without knowing the app's claims.
     */
    static void checkSidecarContainer(PodSpec pod, String where) {
        Container sidecar = sidecar(pod, where);
        assertTrue(sidecar.getImage() != null && sidecar.getImage().startsWith(IMAGE + ":"),
                where + ": image " + sidecar.getImage());
        assertEquals("Always", sidecar.getRestartPolicy(), where + ": native sidecar needs restartPolicy Always");

        ContainerPort management = sidecar.getPorts().stream()
                .filter(p -> Objects.equals(p.getContainerPort(), MANAGEMENT_PORT)).findFirst()
                .orElseThrow(() -> new AssertionError(where + ": no container port " + MANAGEMENT_PORT));
        assertEquals("management", management.getName(), where + ": port 9000 is named management");
        assertFalse(sidecar.getPorts().stream().anyMatch(p -> Objects.equals(p.getContainerPort(), 8089)),
                where + ": the API port binds loopback and must not be declared");

        assertNull(sidecar.getStartupProbe(), where + ": no startupProbe: kubelet would hold the app for its period");
        assertNotNull(sidecar.getLifecycle(), where + ": the postStart hook holds the app until the sidecar started");
        List<String> hook = sidecar.getLifecycle().getPostStart().getExec().getCommand();
        assertEquals(AWAIT_STARTED, hook.subList(0, Math.min(hook.size(), 2)), where + ": postStart runs " + AWAIT_STARTED);
        assertTrue(hook.size() == 3 && hook.get(2).matches("[1-9][0-9]*"), where + ": then the seconds to start: " + hook);
        assertNull(sidecar.getReadinessProbe(), where + ": no readinessProbe: the postStart hook already waited for its"
                + " check, which cannot fail after that; kubelet would report the pod not ready after each of its restarts");
        checkProbe(sidecar, sidecar.getLivenessProbe(), "/q/health/live", where + " livenessProbe");

        var resources = sidecar.getResources();
        assertNotNull(resources, where + ": resources");
        Quantity memoryRequest = resources.getRequests().get("memory");
        Quantity memoryLimit = resources.getLimits().get("memory");
        assertNotNull(memoryRequest, where + ": memory request");
        assertNotNull(memoryLimit, where + ": memory limit (the JVM sizes its heap from it)");
        assertNotNull(resources.getRequests().get("cpu"), where + ": cpu request");
        assertTrue(Quantity.getAmountInBytes(memoryRequest).compareTo(Quantity.getAmountInBytes(memoryLimit)) <= 0,
                where + ": memory request <= limit");

        checkRestricted(pod, sidecar, where);
        assertEquals(Boolean.TRUE, sidecar.getSecurityContext().getReadOnlyRootFilesystem(),
                where + ": sidecar readOnlyRootFilesystem");

        assertEquals(List.of(), sidecar.getVolumeMounts().stream().map(VolumeMount::getMountPath)
                .filter(path -> !path.startsWith("/var/run/secrets/kubernetes.io/")).toList(),
                where + ": the sidecar writes nothing and mounts no volume");
    }

    /** Everything, including the claims: for a complete pod. */
    static void checkPod(PodSpec pod, List<HasMetadata> sameRendering, String where) {
        checkSidecarContainer(pod, where);
        Container sidecar = sidecar(pod, where);

        List<PodResourceClaim> podClaims = pod.getResourceClaims();
        assertFalse(podClaims.isEmpty(), where + ": the pod has no resourceClaims");
        Set<String> podClaimNames = podClaims.stream().map(PodResourceClaim::getName).collect(Collectors.toSet());
        for (PodResourceClaim claim : podClaims) {
            assertTrue(claim.getResourceClaimName() != null ^ claim.getResourceClaimTemplateName() != null,
                    where + ": pod claim " + claim.getName() + " needs exactly one of resourceClaimName/TemplateName");
        }
        Set<String> sidecarClaims = claimNames(sidecar);
        assertEquals(podClaimNames, sidecarClaims,
                where + ": the sidecar sees only the claims it lists in resources.claims: list every pod claim");
        for (Container container : allContainers(pod)) {
            assertTrue(podClaimNames.containsAll(claimNames(container)),
                    where + ": container " + container.getName() + " lists a claim the pod does not have");
            checkRestricted(pod, container, where + " container " + container.getName());
        }

        String expected = sidecar.getEnv().stream().filter(e -> EXPECTED_CLAIMS_ENV.equals(e.getName()))
                .map(EnvVar::getValue).findFirst()
                .orElseThrow(() -> new AssertionError(where + ": sidecar env " + EXPECTED_CLAIMS_ENV));
        checkExpectedClaims(expected, podClaims, sameRendering, where);
    }

    static void checkExpectedClaims(String expected, List<PodResourceClaim> podClaims, List<HasMetadata> objects,
            String where) {
        assertFalse(expected == null || expected.isBlank(), where + ": " + EXPECTED_CLAIMS_ENV + " is empty");
        for (String entry : expected.split(",")) {
            Matcher m = EXPECTED_ENTRY.matcher(entry.trim());
            assertTrue(m.matches(), where + ": bad expected-claims entry '" + entry + "'");
            String name = m.group(2);
            String request = m.group(4);
            if (m.group(1).equals("claims")) {
                PodResourceClaim podClaim = podClaims.stream().filter(c -> name.equals(c.getResourceClaimName()))
                        .findFirst().orElseThrow(() -> new AssertionError(where + ": '" + entry
                                + "' names ResourceClaim " + name + ", which no pod claim references by resourceClaimName"));
                find(objects, io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim.class, name).ifPresent(claim ->
                        assertRequest(requestNames(claim.getSpec().getDevices().getRequests()), request, entry, where));
                assertNotNull(podClaim);
            } else {
                PodResourceClaim podClaim = podClaims.stream().filter(c -> name.equals(c.getName())).findFirst()
                        .orElseThrow(() -> new AssertionError(where + ": '" + entry + "' names pod claim " + name
                                + ", which the pod does not have"));
                assertNotNull(podClaim.getResourceClaimTemplateName(), where + ": '" + entry
                        + "': pod claim " + name + " is not made from a template; use claims/<ResourceClaim name>/...");
                find(objects, ResourceClaimTemplate.class, podClaim.getResourceClaimTemplateName()).ifPresent(t ->
                        assertRequest(requestNames(t.getSpec().getSpec().getDevices().getRequests()), request, entry,
                                where));
            }
        }
    }

    private static void assertRequest(Set<String> requests, String request, String entry, String where) {
        assertTrue(requests.contains(request), where + ": '" + entry + "': no request " + request + " in " + requests);
    }

    private static Set<String> requestNames(List<DeviceRequest> requests) {
        return requests.stream().map(DeviceRequest::getName).collect(Collectors.toSet());
    }

    private static <T extends HasMetadata> Optional<T> find(List<HasMetadata> objects, Class<T> type, String name) {
        return objects.stream().filter(type::isInstance).map(type::cast)
                .filter(o -> name.equals(o.getMetadata().getName())).findFirst();
    }

    private static Set<String> claimNames(Container container) {
        if (container.getResources() == null || container.getResources().getClaims() == null) {
            return Set.of();
        }
        return container.getResources().getClaims().stream().map(ResourceClaim::getName).collect(Collectors.toSet());
    }

    private static List<Container> allContainers(PodSpec pod) {
        return java.util.stream.Stream.concat(pod.getInitContainers().stream(), pod.getContainers().stream()).toList();
    }

    private static void checkProbe(Container container, Probe probe, String path, String where) {
        assertNotNull(probe, where + " missing");
        HTTPGetAction get = probe.getHttpGet();
        assertNotNull(get, where + " is an httpGet probe");
        assertEquals(path, get.getPath(), where + " path");
        assertEquals(MANAGEMENT_PORT, resolvePort(container, get.getPort(), where), where + " port");
    }

    private static int resolvePort(Container container, IntOrString port, String where) {
        assertNotNull(port, where + " port");
        if (port.getIntVal() != null) {
            return port.getIntVal();
        }
        return container.getPorts().stream().filter(p -> port.getStrVal().equals(p.getName()))
                .map(ContainerPort::getContainerPort).findFirst()
                .orElseThrow(() -> new AssertionError(where + ": no port named " + port.getStrVal()));
    }

    /** The Restricted Pod Security Standard, with the container's settings overriding the pod's. */
    private static void checkRestricted(PodSpec pod, Container container, String where) {
        SecurityContext c = Optional.ofNullable(container.getSecurityContext()).orElseGet(SecurityContext::new);
        PodSecurityContext p = Optional.ofNullable(pod.getSecurityContext()).orElseGet(PodSecurityContext::new);
        assertEquals(Boolean.TRUE, effective(c, p, SecurityContext::getRunAsNonRoot, PodSecurityContext::getRunAsNonRoot),
                where + ": runAsNonRoot");
        Long user = effective(c, p, SecurityContext::getRunAsUser, PodSecurityContext::getRunAsUser);
        if (user != null) {
            assertNotEquals(0L, user, where + ": runAsUser must not be 0");
        }
        assertEquals(Boolean.FALSE, c.getAllowPrivilegeEscalation(), where + ": allowPrivilegeEscalation false");
        assertTrue(c.getCapabilities() != null && c.getCapabilities().getDrop().contains("ALL"),
                where + ": capabilities drop ALL");
        assertTrue(c.getCapabilities().getAdd().stream().allMatch("NET_BIND_SERVICE"::equals),
                where + ": only NET_BIND_SERVICE may be added");
        assertNotEquals(Boolean.TRUE, c.getPrivileged(), where + ": privileged");
        var seccomp = c.getSeccompProfile() != null ? c.getSeccompProfile() : p.getSeccompProfile();
        if (seccomp == null) {
            fail(where + ": seccompProfile (RuntimeDefault) on the container or the pod");
        }
        assertTrue(Set.of("RuntimeDefault", "Localhost").contains(seccomp.getType()), where + ": seccompProfile type");
    }

    private static <T> T effective(SecurityContext c, PodSecurityContext p, Function<SecurityContext, T> fromContainer,
            Function<PodSecurityContext, T> fromPod) {
        T value = fromContainer.apply(c);
        return value != null ? value : fromPod.apply(p);
    }

    static List<Deployment> deployments(List<HasMetadata> objects) {
        return objects.stream().filter(Deployment.class::isInstance).map(Deployment.class::cast).toList();
    }
}
