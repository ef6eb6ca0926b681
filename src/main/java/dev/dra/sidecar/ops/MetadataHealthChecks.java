package dev.dra.sidecar.ops;

import dev.dra.sidecar.identity.NodePods;
import dev.dra.sidecar.resourceapi.ResourceApi;
import dev.dra.sidecar.resourceapi.ResourceApiSource;
import dev.dra.sidecar.store.config.ExpectedClaim;
import dev.dra.sidecar.store.MetadataStore;
import dev.dra.sidecar.store.config.StoreConfig;
import dev.dra.sidecar.store.refresh.StoreStatus;
import jakarta.inject.Singleton;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.health.HealthCheck;
import org.jboss.logging.Logger;
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
 *       decodes". In node mode both also wait until the node's pods have been listed once ({@link NodePods#listed}):
 *       a new agent is ready to answer every pod of the node, which is what a rollout waits for before it stops the
 *       old one.
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

    /**
     * How long the start waits for the resource-API source to list what it needs, when it runs: past it (the API
     * server does not answer, or the pod may not list claims or slices), what has no file is given up as absent, and
     * the log says why the source could not list.
     */
    static final Duration RESOURCE_API_WAIT = Duration.ofSeconds(10);

    private static final Logger LOG = Logger.getLogger(MetadataHealthChecks.class);

    private final MetadataStore store;
    private final List<ExpectedClaim> expected;
    private final Optional<ResourceApiSource> derivation;
    private final NodePods nodePods;
    private final long madeNanos = System.nanoTime();
    private final Set<String> reportedAbsent = ConcurrentHashMap.newKeySet();

    MetadataHealthChecks(MetadataStore store, StoreConfig config, ResourceApi resourceApi, Instance<NodePods> pods) {
        this.store = store;
        this.expected = ExpectedClaim.parseAll(config.expectedClaims().orElse(List.of()));
        this.derivation = resourceApi.source();
        this.nodePods = config.mode() == StoreConfig.Mode.NODE ? pods.get() : null;
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
        boolean pending = derivation.isPresent() && !derivation.get().settled()
                && System.nanoTime() - madeNanos < RESOURCE_API_WAIT.toNanos();
        MetadataReadiness.Result result = MetadataReadiness.evaluate(store.status(), store.held(), store.root(),
                store.current(), expected, pending);
        boolean podsListed = nodePods == null || nodePods.listed();
        HealthCheckResponseBuilder response = HealthCheckResponse.named(name).status(result.up() && podsListed);
        if (nodePods != null) {
            response.withData("node-pods", podsListed ? "listed" : "not listed yet (the API server has not answered)");
        }
        result.data().forEach((key, value) -> {
            response.withData(key, value);
            if (value.startsWith(MetadataReadiness.ABSENT) && reportedAbsent.add(key + value)) {
                LOG.warnf("Expected claim %s is %s", key, value);
            }
        });
        return response.build();
    }
}
