package dev.dra.sidecar.store;

import dev.dra.sidecar.store.config.StoreConfig;
import dev.dra.sidecar.store.refresh.RefreshObserver;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Starts the one store of the application from its configuration, with its first scan done before serving. The
 * store reports to the application's one {@link RefreshObserver} bean (the metrics): none or several is a
 * deployment error, not a store without metrics.
 */
@ApplicationScoped
class MetadataStoreProducer {

    @Produces
    @Singleton
    @Startup
    MetadataStore store(StoreConfig config, RefreshObserver observer) {
        MetadataStore store = new MetadataStore(config, observer);
        store.start();
        return store;
    }

    void stop(@Disposes MetadataStore store) {
        store.close();
    }
}
