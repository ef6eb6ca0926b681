package dev.dra.sidecar.store.source;

import dev.dra.sidecar.store.config.StoreConfig;

/** Makes the one source of a store, of the kind {@link StoreConfig#mode()} names. */
public final class FileSourceFactory {

    private FileSourceFactory() {}

    /** Sidecar mode: the container's own tree under the root; node mode: the files the node's CDI specs name. */
    public static FileSource of(StoreConfig config) {
        return switch (config.mode()) {
            case SIDECAR -> new TreeScanner(config.root());
            case NODE -> new CdiSpecScanner(config.cdiDir(), config.root(), config.maxFileSize().asLongValue());
        };
    }
}
