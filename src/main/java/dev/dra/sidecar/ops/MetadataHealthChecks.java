package dev.dra.sidecar.ops;

import dev.dra.sidecar.store.MetadataStore;
import dev.dra.sidecar.store.config.StoreConfig;
import dev.dra.sidecar.store.refresh.StoreStatus;
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
 *   <li>{@code dra-metadata-refresh} (liveness): the refresh loop's thread is running and not stuck: no cycle has
 *       been under way for longer than {@link #STUCK_CYCLE}. It asks nothing of the loop, which at rest sleeps
 *       until a safety net is due. Never depends on the files: a broken file must not get the pod restarted, only a
 *       stuck or ended loop should.
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

    /**
     * A cycle under way for longer than this is stuck: a cycle walks the tree and looks at every file, which takes
     * seconds on the largest tree the memory bound admits (a read that hangs, a file system that does not answer,
     * takes forever).
     */
    static final Duration STUCK_CYCLE = Duration.ofSeconds(60);

    private final MetadataStore store;
    private final List<ExpectedClaim> expected;

    MetadataHealthChecks(MetadataStore store, StoreConfig config) {
        this.store = store;
        this.expected = ExpectedClaim.parseAll(config.expectedClaims().orElse(List.of()));
    }

    @Produces
    @Liveness
    HealthCheck refreshLoop() {
        return () -> {
            StoreStatus status = store.status();
            Duration busy = store.busyFor();
            boolean up = busy != null && busy.compareTo(STUCK_CYCLE) <= 0;
            HealthCheckResponseBuilder response = HealthCheckResponse.named(REFRESH).status(up)
                    .withData("cycles", status.cycles())
                    .withData("last-cycle-ms-ago", Duration.ofNanos(System.nanoTime() - status.lastCycleNanos()).toMillis())
                    .withData("cycle-under-way-ms", busy == null ? 0 : busy.toMillis())
                    .withData("window-ms", STUCK_CYCLE.toMillis());
            if (busy == null) {
                response.withData("problem", "the refresh loop has ended: no change is read any more; a restart is "
                        + "the remedy");
            } else if (!up) {
                response.withData("problem", "the refresh loop has been in one cycle for " + busy.toSeconds()
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
