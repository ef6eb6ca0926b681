package dev.dra.sidecar.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.Kustomize;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every manifest under deploy/kubernetes, rendered as {@code kubectl apply -k} renders it, is accepted by a real
 * API server in namespaces that enforce the Restricted Pod Security Standard, with no warning, and so is the pod
 * each Deployment would make; taking away what the docs call required is refused as they say.
 */
class ManifestsAdmissionIT {

    @RegisterExtension
    static final KubeApiServerExtension API = new KubeApiServerExtension();

    private static final Path KUBERNETES = Path.of("deploy", "kubernetes");

    @Test
    void theBaseAndItsPodAreAdmittedUnderRestrictedWithoutWarnings() throws Exception {
        List<HasMetadata> objects = API.load(Kustomize.render(KUBERNETES.resolve("base")));
        // The base brings its own namespace, which must enforce Restricted itself.
        HasMetadata namespace = objects.stream().filter(o -> o.getKind().equals("Namespace")).findFirst().orElseThrow();
        assertTrue(namespace.getMetadata().getLabels().entrySet().containsAll(KubeApiServerExtension.RESTRICTED.entrySet()),
                "the base's namespace enforces, warns about and audits Restricted: " + namespace.getMetadata().getLabels());
        applyAndCreatePods(objects, null);
    }

    @Test
    void theComponentOnASampleDeploymentAndItsPodAreAdmittedUnderRestrictedWithoutWarnings() throws Exception {
        String namespace = API.restrictedNamespace("component-example", Map.of());
        List<HasMetadata> objects = API.load(Kustomize.render(KUBERNETES.resolve("overlays/component-example")));
        applyAndCreatePods(objects, namespace);
    }

    @Test
    void theInjectionManifestsAreAdmittedWithoutWarnings() throws Exception {
        List<HasMetadata> objects = API.load(Kustomize.render(KUBERNETES.resolve("injection")));
        assertEquals(List.of("MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding",
                        "MutatingAdmissionPolicyBinding", "ValidatingAdmissionPolicy",
                        "ValidatingAdmissionPolicyBinding", "ValidatingAdmissionPolicyBinding"),
                objects.stream().map(HasMetadata::getKind).toList());
        for (HasMetadata object : objects) {
            API.client().resource(object).serverSideApply();
        }
        assertEquals(List.of(), API.warnings());
    }

    /** What makes "no warning" worth asserting: the API server reports a field it does not know as a warning. */
    @Test
    void aMisspelledFieldOfThePolicyComesBackAsAWarning() throws Exception {
        String misspelled = Kustomize.render(KUBERNETES.resolve("injection"))
                .replace("failurePolicy:", "failurePolicyy:");
        HasMetadata policy = API.load(misspelled).stream()
                .filter(o -> o.getKind().equals("MutatingAdmissionPolicy")).findFirst().orElseThrow();
        API.warnings();
        API.client().resource(policy).dryRun().create();
        List<String> warnings = API.warnings();
        assertTrue(warnings.stream().anyMatch(w -> w.contains("unknown field") && w.contains("spec.failurePolicyy")),
                warnings.toString());
    }

    /** The docs: both containers meet Restricted and the namespace enforces it, "so that a regression is refused". */
    @Test
    void aSidecarThatMayEscalatePrivilegesIsRefused() throws Exception {
        assertRefused(sidecar -> sidecar.getSecurityContext().setAllowPrivilegeEscalation(null),
                "allowPrivilegeEscalation != false (container \"dra-metadata-sidecar\"");
    }

    @Test
    void aSidecarThatKeepsItsCapabilitiesIsRefused() throws Exception {
        assertRefused(sidecar -> sidecar.getSecurityContext().setCapabilities(null),
                "unrestricted capabilities (container \"dra-metadata-sidecar\"");
    }

    @Test
    void aSidecarThatRunsAsRootIsRefused() throws Exception {
        assertRefused(sidecar -> sidecar.getSecurityContext().setRunAsUser(0L),
                "runAsUser=0 (container \"dra-metadata-sidecar\"");
    }

    /**
     * The docs: the sidecar must list every claim the app uses, else "the sidecar sees nothing and its startup check
     * says so". The API server cannot know and admits such a pod; the packaged sidecar, given the files the kubelet
     * mounts for the container as admitted, reports the claim as absent, naming both causes (the container does not
     * list it; its driver writes no file), and lets the start go on (nothing it waits for can come); the complete pod
     * starts with the claim there.
     */
    @Test
    void aSidecarThatDoesNotListAClaimTheAppUsesIsAdmittedAndItsStartupCheckSaysSo(@TempDir Path complete,
            @TempDir Path incomplete) throws Exception {
        String namespace = API.restrictedNamespace("missing-claim", Map.of());
        Deployment base = Pods.deployments(API.load(Kustomize.render(KUBERNETES.resolve("base")))).get(0);

        Pod asShipped = API.client().pods().inNamespace(namespace).resource(Pods.fromTemplate(base)).create();
        KubeletMounts.assertStartupCheck(asShipped, complete, 200, "\"template-claims/my-gpu/gpu\": \"ok\"");

        Pod pod = Pods.fromTemplate(base);
        Pods.sidecar(pod).getResources().getClaims().removeIf(claim -> claim.getName().equals("my-gpu"));
        Pod admitted = API.client().pods().inNamespace(namespace).resource(pod).create();
        assertEquals(List.of(), API.warnings());
        KubeletMounts.assertStartupCheck(admitted, incomplete, 200,
                "\"template-claims/my-gpu/gpu\": \"absent: no metadata for pod claim my-gpu (spec.resourceClaims[].name"
                + " of a template claim) (no file is mounted for it at " + incomplete.resolve("resourceclaimtemplates/my-gpu")
                + "): either the sidecar container does not list pod claim my-gpu (spec.resourceClaims[].name of a template"
                + " claim) in its own resources.claims (kubelet mounts only the claims a container lists), or its driver"
                + " writes no metadata file");
    }

    /** The component's sidecar as a pod gets it, with {@code change} made, in a namespace enforcing Restricted. */
    private static void assertRefused(Consumer<Container> change, String reason) throws Exception {
        String namespace = API.restrictedNamespace("regression", Map.of());
        Deployment deployment = Pods.deployments(API.load(Kustomize.render(KUBERNETES.resolve("overlays/component-example"))))
                .get(0);
        Pod pod = Pods.fromTemplate(deployment);
        change.accept(Pods.sidecar(pod));
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> API.client().pods().inNamespace(namespace).resource(pod).create());
        assertEquals(403, e.getCode(), e.getMessage());
        assertTrue(e.getMessage().contains("violates PodSecurity \"restricted:latest\"")
                && e.getMessage().contains(reason), e.getMessage());
    }

    private static void applyAndCreatePods(List<HasMetadata> objects, String namespace) {
        API.warnings();
        for (HasMetadata object : objects) {
            var resource = namespace == null || object.getKind().equals("Namespace")
                    ? API.client().resource(object) : API.client().resource(object).inNamespace(namespace);
            assertNotNull(resource.create(), object.getKind() + " " + object.getMetadata().getName());
            if (object.getKind().equals("Namespace")) {
                API.addDefaultServiceAccount(object.getMetadata().getName());
            }
        }
        List<Deployment> deployments = Pods.deployments(objects);
        assertFalse(deployments.isEmpty(), "no Deployment rendered");
        for (Deployment deployment : deployments) {
            String in = namespace != null ? namespace : deployment.getMetadata().getNamespace();
            Pod created = API.client().pods().inNamespace(in).resource(Pods.fromTemplate(deployment)).create();
            assertNotNull(Pods.sidecar(created), "the admitted pod carries the sidecar");
        }
        assertEquals(List.of(), API.warnings(), "the API server's warnings");
    }
}
