package dev.dra.sidecar.kube;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;

/** Pods as the tests create them. */
final class Pods {

    static final String SIDECAR = "dra-metadata-sidecar";

    private Pods() {}

    /**
     * The pod a Deployment's controller would make from its template (there is no controller here: creating it
     * is admission and validation only, which is what the tests check).
     */
    static Pod fromTemplate(Deployment deployment) {
        PodTemplateSpec template = deployment.getSpec().getTemplate();
        return new PodBuilder()
                .withNewMetadataLike(template.getMetadata()).withGenerateName(deployment.getMetadata().getName() + "-")
                .endMetadata()
                .withSpec(template.getSpec())
                .build();
    }

    static List<Deployment> deployments(List<HasMetadata> objects) {
        return objects.stream().filter(Deployment.class::isInstance).map(Deployment.class::cast).toList();
    }

    /** The init container named {@value #SIDECAR}, or null. */
    static Container sidecar(Pod pod) {
        return pod.getSpec().getInitContainers().stream().filter(c -> SIDECAR.equals(c.getName())).findFirst()
                .orElse(null);
    }
}
