package dev.dra.sidecar.identity;

import dev.dra.sidecar.kube.KubeApi;
import dev.dra.sidecar.store.MetadataStore;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Node mode's watch of the node's pods ({@link NodePods}) and the check of callers made of it ({@link PodCallers}),
 * made the first time node mode asks for them: one watch, shared by the check and the resource-API source.
 */
@ApplicationScoped
class NodeIdentityProducer {

    @Produces
    @Singleton
    NodePods pods(NodeConfig config, KubeApi api) {
        if (config.nodeName().isEmpty()) {
            throw new IllegalStateException("node mode needs the node's name: set NODE_NAME (downward API "
                    + "spec.nodeName) or dra.metadata.node.name");
        }
        return new NodePods(api, config.nodeName(), config.lookupTimeout());
    }

    @Produces
    @Singleton
    PodCallers callers(NodeConfig config, MetadataStore store, KubeApi api, NodePods pods, MeterRegistry registry) {
        return new PodCallers(config, store, api, pods, registry);
    }

    void close(@Disposes NodePods pods) {
        pods.close();
    }

    void closeCallers(@Disposes PodCallers callers) {
        callers.close();
    }
}
