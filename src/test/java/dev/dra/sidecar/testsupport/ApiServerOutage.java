package dev.dra.sidecar.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * An outage on demand of the kube-apiserver that {@code src/test/kube-apiserver/start.sh} runs on a state directory:
 * the script stops it while {@code stop-apiserver} exists (etcd keeps running) and says so with
 * {@code apiserver-stopped}; once the first is removed it starts it again, from the binary {@code apiserver-binary}
 * names when that file is there, and removes the second when it answers {@code /readyz}.
 */
public final class ApiServerOutage {

    /** How long each step (stopped, ready again) may take. */
    private static final Duration STEP = Duration.ofSeconds(90);

    private ApiServerOutage() {}

    /**
     * Stops the API server of {@code state} and returns once it is stopped: connections to it are refused. The
     * returned action starts it again at the same address, with the same certificates, keys and data, from
     * {@code binary} ({@code null}: the one it ran), and returns once it answers {@code /readyz}.
     */
    public static Runnable begin(Path state, Path binary) {
        Path stop = state.resolve("stop-apiserver");
        Path stopped = state.resolve("apiserver-stopped");
        try {
            if (binary != null) {
                Files.writeString(state.resolve("apiserver-binary"), binary.toString());
            }
            Files.writeString(stop, "");
            Eventually.awaitTrue(STEP, "kube-apiserver stopped (logs in " + state + ")", () -> Files.exists(stopped));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return () -> {
            try {
                Files.delete(stop);
                Eventually.awaitTrue(STEP, "kube-apiserver ready again (logs in " + state + ")",
                        () -> !Files.exists(stopped));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }
}
