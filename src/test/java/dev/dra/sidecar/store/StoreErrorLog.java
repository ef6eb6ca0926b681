package dev.dra.sidecar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test when the store logged an error during it: the refresh loop survives a failing cycle by logging
 * it, so without this a broken cycle would only show up as a delay.
 */
final class StoreErrorLog implements BeforeEachCallback, AfterEachCallback {

    private static final Logger STORE = Logger.getLogger("dev.dra.sidecar.store");

    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
                Throwable thrown = record.getThrown();
                errors.add(record.getMessage() + (thrown == null ? "" : ": " + thrown));
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    @Override
    public void beforeEach(ExtensionContext context) {
        errors.clear();
        STORE.addHandler(handler);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        STORE.removeHandler(handler);
        assertEquals(List.of(), errors, "errors logged by the store");
    }
}
