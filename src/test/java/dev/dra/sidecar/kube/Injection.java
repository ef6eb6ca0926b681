package dev.dra.sidecar.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.InjectionParameters;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The injection of deploy/kubernetes/injection on the test API server: applied as a user applies it, and the probe
 * that tells when the API server enforces it (policies reach admission through an informer, a moment after they are
 * stored).
 */
final class Injection {

    static final Path DIR = Path.of("deploy", "kubernetes", "injection");
    static final String OPT_IN = "dra-metadata-sidecar.dra.dev/inject";
    private static final Duration PROPAGATION = Duration.ofSeconds(30);

    private final KubeApiServerExtension api;
    private final Kustomization manifests;
    private final String probeNamespace;

    Injection(KubeApiServerExtension api) {
        this.api = api;
        this.manifests = new Kustomization(api, DIR);
        this.probeNamespace = api.restrictedNamespace("injection-probe", Map.of());
    }

    /** The injection's objects, as {@link Kustomization#objects()}. */
    List<HasMetadata> objects() throws Exception {
        return manifests.objects();
    }

    /** Applies the injection, as {@link Kustomization#apply()}. */
    void apply() throws Exception {
        manifests.apply();
    }

    /** Removes the injection, as {@link Kustomization#remove()}. */
    void remove() throws Exception {
        manifests.remove();
    }

    /**
     * Edits the stored policy's parameters as an admin does ({@code kubectl edit}); admission has the change a moment
     * later.
     */
    void editParameters(Consumer<Map<String, String>> edit) throws Exception {
        HasMetadata shipped = policy();
        GenericKubernetesResource stored = api.client().genericKubernetesResources(shipped.getApiVersion(), shipped.getKind())
                .withName(shipped.getMetadata().getName()).get();
        api.client().resource(InjectionParameters.edited(stored, edit)).update();
    }

    private HasMetadata policy() throws Exception {
        return objects().stream().filter(o -> o.getKind().equals("MutatingAdmissionPolicy")).findFirst().orElseThrow();
    }

    /**
     * Applies the injection as shipped, waits until admission enforces it, and gives a new Restricted namespace
     * {@code <prefix>-<n>} for the pods of one test; the API server's warnings so far are consumed.
     */
    String enforcedInAFreshNamespace(String prefix) throws Exception {
        apply();
        awaitEnforced();
        String namespace = api.restrictedNamespace(prefix, java.util.Map.of());
        api.warnings();
        return namespace;
    }

    /**
     * Waits until an opted-in pod with a claim gets the sidecar as the shipped parameters make it (a dry run: nothing
     * is stored); a refusal, or a sidecar of parameters edited before, is not that yet.
     */
    void awaitEnforced() throws Exception {
        String image = InjectionParameters.of(policy()).get("image");
        Eventually.await(PROPAGATION, () -> {
            try {
                return probeInjected();
            } catch (KubernetesClientException e) {
                return null;
            }
        }, sidecar -> InjectionParameters.shipped(sidecar, image), "the injection policy enforced as shipped");
    }

    /** Waits until an opted-in pod with a claim is created as it is. */
    void awaitNotEnforced() {
        Eventually.await(PROPAGATION, this::probeInjected, sidecar -> sidecar == null, "the injection policy gone");
    }

    /** What a dry run creation of an opted-in pod with a claim fails with, once it fails. */
    KubernetesClientException awaitRefusal() {
        return Eventually.await(PROPAGATION, () -> {
            try {
                probeInjected();
                return null;
            } catch (KubernetesClientException e) {
                return e;
            }
        }, e -> e != null, "opted-in pods refused");
    }

    /** The sidecar a dry run creation of an opted-in pod with a claim gets, or null. */
    private Container probeInjected() {
        Pod probe = new PodBuilder(InjectionPods.withClaims("probe", InjectionPods.direct("gpu", "gpu-claim")))
                .editMetadata().addToLabels(OPT_IN, "true").endMetadata().build();
        Pod created = api.client().pods().inNamespace(probeNamespace).resource(probe).dryRun().create();
        api.warnings();
        return Pods.sidecar(created);
    }

    static void assertUnchanged(Pod submitted, Pod created) {
        assertEquals(submitted.getSpec().getInitContainers().stream().map(c -> c.getName()).toList(),
                created.getSpec().getInitContainers().stream().map(c -> c.getName()).toList(), "init containers");
        assertEquals(submitted.getSpec().getVolumes().stream().map(v -> v.getName()).toList(),
                created.getSpec().getVolumes().stream().map(v -> v.getName()).toList(), "volumes");
    }
}
