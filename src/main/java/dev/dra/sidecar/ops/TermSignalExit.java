package dev.dra.sidecar.ops;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;
import sun.misc.Signal;

/**
 * SIGTERM is how kubelet and {@code podman stop} end the sidecar, so the packaged application ends a stop it was
 * asked for with exit status 0 after the usual graceful shutdown (every shutdown hook, {@link GracefulShutdown}'s
 * included, runs as before), not with the JVM's 143. A container that ends with 0 reads {@code Completed}, not
 * {@code Error}; a crash still ends with its own status. Only the packaged application (launch mode normal):
 * tests and dev mode keep the JVM's own handling.
 */
@Singleton
@Startup
public class TermSignalExit {

    TermSignalExit() {
        if (LaunchMode.current() == LaunchMode.NORMAL) {
            Signal.handle(new Signal("TERM"), signal -> System.exit(0));
        }
    }
}
