package dev.dra.sidecar.store.config;

/**
 * The store's one log category, {@value #CATEGORY}: whichever room of the store reports a file, its source or its
 * memory bound, the report is found in one place, and one {@code quarkus.log.category} setting governs it.
 */
public final class StoreLog {

    /** The category every room of the store logs under, unless a class names its own. */
    public static final String CATEGORY = "dev.dra.sidecar.store.MetadataStore";

    private StoreLog() {}
}
