package dev.dra.sidecar.ops;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmHeapPressureMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.quarkus.micrometer.runtime.binder.JVMInfoBinder;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The JVM's metrics ({@code jvm_memory_*}, {@code jvm_gc_*}, {@code jvm_threads_*}, {@code jvm_classes_*},
 * {@code jvm_info}): the binders of Quarkus' {@code quarkus.micrometer.binder.jvm}, which is off, bound here when
 * the first scrape of {@value #METRICS} comes instead of at start-up.
 *
 * <p>Binding them, the garbage collectors' notification listeners above all, initializes the JDK's management
 * support: a sizable part of a start measured in tenths of a second, spent before the sidecar could serve. Now the
 * first scrape waits for it (off the event loop) and already has every JVM meter; every later one finds them bound.
 * A binder that fails is logged once and the others still bind. The listeners are removed when the application
 * stops.
 */
@Singleton
class JvmMetrics {

    /** Where Quarkus serves the Prometheus text on the management interface. */
    static final String METRICS = "/q/metrics";

    private static final Logger LOG = Logger.getLogger(JvmMetrics.class);

    /** The binders that hold listeners, to be closed at shutdown. */
    private final Queue<AutoCloseable> listening = new ConcurrentLinkedQueue<>();
    private volatile boolean bound;

    void route(@Observes ManagementInterface management) {
        management.router().route(METRICS).order(-1).handler(this::bindBeforeFirstScrape);
    }

    private void bindBeforeFirstScrape(RoutingContext context) {
        if (bound) {
            context.next();
        } else {
            context.vertx().executeBlocking(() -> {
                bind();
                return null;
            }).onComplete(done -> context.next());
        }
    }

    private synchronized void bind() {
        if (bound) {
            return;
        }
        List<Supplier<MeterBinder>> binders = List.of(ClassLoaderMetrics::new, JvmMemoryMetrics::new,
                JvmThreadMetrics::new, JVMInfoBinder::new, JvmGcMetrics::new, JvmHeapPressureMetrics::new);
        for (Supplier<MeterBinder> binder : binders) {
            try {
                MeterBinder meters = binder.get(); // the GC binders start listening here already
                if (meters instanceof AutoCloseable closeable) {
                    listening.add(closeable);
                }
                meters.bindTo(Metrics.globalRegistry);
            } catch (RuntimeException e) {
                LOG.warn("Some JVM metrics are not available", e);
            }
        }
        bound = true;
    }

    void close(@Observes ShutdownEvent event) throws Exception {
        for (AutoCloseable closeable : listening) {
            closeable.close();
        }
    }
}
