package dev.dra.sidecar.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.Kustomize;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

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
    private final String probeNamespace;

    Injection(KubeApiServerExtension api) {
        this.api = api;
        this.probeNamespace = api.restrictedNamespace("injection-probe", Map.of());
    }

    List<HasMetadata> objects() throws Exception {
        return api.load(Kustomize.render(DIR));
    }

    /** Creates every object of the kustomization, or replaces it as it is there (a test may have changed it). */
    void apply() throws Exception {
        for (HasMetadata object : objects()) {
            api.client().resource(object).createOr(NonDeletingOperation::update);
        }
    }

    /**
     * Deletes every object of the kustomization but its Namespace (this API server has no controller that would
     * finish a namespace's deletion): the bindings and the policy before their parameters, so that no binding is
     * stored without them.
     */
    void remove() throws Exception {
        List<HasMetadata> objects = new ArrayList<>(objects());
        Collections.reverse(objects);
        for (HasMetadata object : objects) {
            if (!object.getKind().equals("Namespace")) {
                api.client().resource(object).delete();
            }
        }
    }

    /** Waits until an opted-in pod with a claim gets the sidecar (a dry run: nothing is stored). */
    void awaitEnforced() {
        Eventually.await(PROPAGATION, this::probeInjected, injected -> injected, "the injection policy enforced");
    }

    /**
     * Waits until an opted-in pod with a claim is created as it is. A refusal counts as still enforced: admission
     * may see a binding a moment longer than the parameters deleted with it.
     */
    void awaitNotEnforced() {
        Eventually.await(PROPAGATION, () -> {
            try {
                return probeInjected();
            } catch (KubernetesClientException e) {
                return true;
            }
        }, injected -> !injected, "the injection policy gone");
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

    private boolean probeInjected() {
        Pod probe = new PodBuilder(InjectionPods.withClaims("probe", InjectionPods.direct("gpu", "gpu-claim")))
                .editMetadata().addToLabels(OPT_IN, "true").endMetadata().build();
        Pod created = api.client().pods().inNamespace(probeNamespace).resource(probe).dryRun().create();
        api.warnings();
        return Pods.sidecar(created) != null;
    }

    static void assertUnchanged(Pod submitted, Pod created) {
        assertEquals(submitted.getSpec().getInitContainers().stream().map(c -> c.getName()).toList(),
                created.getSpec().getInitContainers().stream().map(c -> c.getName()).toList(), "init containers");
        assertEquals(submitted.getSpec().getVolumes().stream().map(v -> v.getName()).toList(),
                created.getSpec().getVolumes().stream().map(v -> v.getName()).toList(), "volumes");
    }
}
