package dev.dra.sidecar.testsupport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real component for the whole test run, shared by the JUnit extensions that give it to test classes: started
 * by the first class that needs it, closed (as an {@link AutoCloseable}) when the run ends.
 */
public final class RunWide {

    private RunWide() {
    }

    /**
     * The run's one {@code type} kept by {@code owner}, started by {@code start} on first use. When
     * {@code unavailable} says why it could not start (not {@code null}), every test of the calling class is skipped
     * with that reason, which is also logged: a class aborted in beforeAll shows as "Tests run: 0" in Maven's summary.
     */
    public static <T extends AutoCloseable> T get(ExtensionContext context, Class<?> owner, Class<T> type,
            Supplier<T> start, Function<T, String> unavailable) {
        T shared = context.getRoot().getStore(ExtensionContext.Namespace.create(owner))
                .computeIfAbsent(type, k -> start.get(), type);
        String reason = unavailable.apply(shared);
        if (reason != null) {
            System.err.println("SKIPPED " + context.getDisplayName() + ": " + reason);
        }
        assumeTrue(reason == null, reason);
        return shared;
    }
}
