package dev.dra.sidecar.ops;

import dev.dra.sidecar.store.MetadataStore;
import dev.dra.sidecar.store.StoreStatus;
import dev.dra.sidecar.store.StoreConfig;
import jakarta.inject.Singleton;
import jakarta.enterprise.inject.Produces;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/**
 * The three probes on the management interface ({@code /q/health/live}, {@code /ready}, {@code /started}).
 *
 * <ul>
 *   <li>{@code dra-metadata-refresh} (liveness): the refresh loop completed a cycle within
 *       max(10 × the longer of the two poll intervals, 10 s) (the loop cycles at least once per interval of its
 *       mode). Never depends on the files: a broken file must not get the pod restarted, only a stuck loop should.
 *   <li>{@value #PRESENT} (readiness) and {@value #PRESENT_AT_START} (startup): the same check, see
 *       {@link MetadataReadiness}, under two names, because {@code /q/health} lists every check of every probe and
 *       each must appear there once. Kubelet starts the app container only after the sidecar's postStart hook
 *       ({@link AwaitStarted}) has seen the startup check UP, so "started" means "the app's metadata is here and
 *       decodes".
 * </ul>
 *
 * <p>The expected claims are parsed when this bean is created at startup: a malformed entry stops the
 * application with a message naming it, instead of a probe that can never pass.
 */
@Singleton
@io.quarkus.runtime.Startup
public class MetadataHealthChecks {

    static final String REFRESH = "dra-metadata-refresh";
    static final String PRESENT = "dra-metadata-present";
    static final String PRESENT_AT_START = "dra-metadata-present-at-start";

    private static final Duration MIN_LIVENESS_WINDOW = Duration.ofSeconds(10);

    private final MetadataStore store;
    private final List<ExpectedClaim> expected;
    private final Duration livenessWindow;

    MetadataHealthChecks(MetadataStore store, StoreConfig config) {
        this.store = store;
        this.expected = ExpectedClaim.parseAll(config.expectedClaims().orElse(List.of()));
        Duration slowerPoll = config.safetyPollInterval().compareTo(config.pollInterval()) > 0
                ? config.safetyPollInterval() : config.pollInterval();
        // Twice the longest a healthy loop goes without a cycle, and never under 10 s: a slow node's late cycle does
        // not get a busy but healthy loop restarted.
        Duration window = slowerPoll.multipliedBy(2L * MetadataStore.MAX_POLLS_BETWEEN_CYCLES);
        this.livenessWindow = window.compareTo(MIN_LIVENESS_WINDOW) > 0 ? window : MIN_LIVENESS_WINDOW;
    }

    @Produces
    @Liveness
    HealthCheck refreshLoop() {
        return () -> {
            StoreStatus status = store.status();
            Duration since = Duration.ofNanos(System.nanoTime() - status.lastCycleNanos());
            boolean up = since.compareTo(livenessWindow) <= 0;
            HealthCheckResponseBuilder response = HealthCheckResponse.named(REFRESH).status(up)
                    .withData("cycles", status.cycles())
                    .withData("last-cycle-ms-ago", since.toMillis())
                    .withData("window-ms", livenessWindow.toMillis());
            if (!up) {
                response.withData("problem", "the refresh loop has not completed a cycle for " + since.toSeconds()
                        + " s: it is stuck; a restart is the remedy");
            }
            return response.build();
        };
    }

    @Produces
    @Readiness
    HealthCheck ready() {
        return () -> metadataPresent(PRESENT);
    }

    @Produces
    @org.eclipse.microprofile.health.Startup
    HealthCheck started() {
        return () -> metadataPresent(PRESENT_AT_START);
    }

    private HealthCheckResponse metadataPresent(String name) {
        MetadataReadiness.Result result =
                MetadataReadiness.evaluate(store.status(), store.held(), store.root(), store.current(), expected);
        HealthCheckResponseBuilder response = HealthCheckResponse.named(name).status(result.up());
        result.data().forEach(response::withData);
        return response.build();
    }
}
