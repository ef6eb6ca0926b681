package dev.dra.sidecar.store.refresh;

import dev.dra.sidecar.store.config.StoreLog;
import dev.dra.sidecar.store.source.FileSource;
import org.jboss.logging.Logger;

/** Whether the store's source was there at the last walk; says so in the log each time that changes. */
final class SourcePresence {

    private static final Logger LOG = Logger.getLogger(StoreLog.CATEGORY);

    private Boolean seen;

    void seen(FileSource source, boolean exists) {
        if (seen == null || seen != exists) {
            if (exists) {
                LOG.infof("Metadata root %s found", source.root());
            } else {
                LOG.warn(source.missingRootWarning());
            }
            seen = exists;
        }
    }

    boolean exists() {
        return Boolean.TRUE.equals(seen);
    }
}
