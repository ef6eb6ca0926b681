package dev.dra.sidecar.store;

import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Starts the one store of the application from its configuration, with its first scan done before serving. */
@ApplicationScoped
class MetadataStoreProducer {

    @Produces
    @Singleton
    @Startup
    MetadataStore store(StoreConfig config, Instance<RefreshObserver> observers) {
        RefreshObserver observer = observers.isResolvable() ? observers.get() : RefreshObserver.NONE;
        MetadataStore store = new MetadataStore(config, observer);
        store.start();
        return store;
    }

    void stop(@Disposes MetadataStore store) {
        store.close();
    }
}
