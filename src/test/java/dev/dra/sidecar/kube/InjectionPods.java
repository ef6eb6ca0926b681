package dev.dra.sidecar.kube;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.ResourceClaim;
import java.util.Arrays;
import java.util.List;

/** Pods that meet the Restricted Pod Security Standard, with the claims and containers a test gives them. */
final class InjectionPods {

    private InjectionPods() {}

    static PodResourceClaim direct(String podClaimName, String resourceClaimName) {
        return new PodResourceClaimBuilder().withName(podClaimName).withResourceClaimName(resourceClaimName).build();
    }

    static PodResourceClaim template(String podClaimName, String templateName) {
        return new PodResourceClaimBuilder().withName(podClaimName).withResourceClaimTemplateName(templateName).build();
    }

    /** A claim reference of a container's resources.claims: {@code name} or {@code name/request}. */
    static ResourceClaim uses(String reference) {
        String[] parts = reference.split("/", 2);
        return new ResourceClaim(parts[0], parts.length == 2 ? parts[1] : null);
    }

    /** A Restricted app container named {@code name} that lists {@code claims} (see {@link #uses}). */
    static Container app(String name, String... claims) {
        return new ContainerBuilder().withName(name).withImage("registry.example.com/" + name + ":1")
                .withNewResources().withClaims(Arrays.stream(claims).map(InjectionPods::uses).toList()).endResources()
                .withNewSecurityContext().withAllowPrivilegeEscalation(false).withNewCapabilities().withDrop("ALL")
                .endCapabilities().endSecurityContext()
                .build();
    }

    /** A pod named {@code name} with {@code claims} and one app container that lists all of them whole. */
    static Pod withClaims(String name, PodResourceClaim... claims) {
        String[] all = Arrays.stream(claims).map(PodResourceClaim::getName).toArray(String[]::new);
        return pod(name, List.of(claims), List.of(), List.of(app("app", all)));
    }

    /** A pod whose pod-level security context makes every container run as non-root with RuntimeDefault seccomp. */
    static Pod pod(String name, List<PodResourceClaim> claims, List<Container> initContainers,
            List<Container> containers) {
        return new PodBuilder()
                .withNewMetadata().withName(name).endMetadata()
                .withNewSpec()
                .withAutomountServiceAccountToken(false)
                .withNewSecurityContext().withRunAsNonRoot(true).withRunAsUser(1001L).withNewSeccompProfile()
                .withType("RuntimeDefault").endSeccompProfile().endSecurityContext()
                .withResourceClaims(claims)
                .withInitContainers(initContainers)
                .withContainers(containers)
                .endSpec()
                .build();
    }
}
