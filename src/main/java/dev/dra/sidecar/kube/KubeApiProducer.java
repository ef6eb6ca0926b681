package dev.dra.sidecar.kube;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The application's one {@link KubeApi}, made from {@link KubeConfig} the first time a part that needs the API server
 * asks for it (node mode, the resource-API source), its calls counted ({@link ApiRequests}); a service that needs
 * none never makes it.
 */
@ApplicationScoped
class KubeApiProducer {

    @Produces
    @Singleton
    KubeApi api(KubeConfig config, MeterRegistry registry) {
        return config.client("node mode, and the resource-API source,", new ApiRequests(registry));
    }
}
