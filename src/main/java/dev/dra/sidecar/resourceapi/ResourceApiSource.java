package dev.dra.sidecar.resourceapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dra.sidecar.kube.KubeApi;
import dev.dra.sidecar.kube.ListWatch;
import dev.dra.sidecar.snapshot.DerivedClaims;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The resource API as a source of metadata: keeps {@link ResourceApiState} current from lists and watches of the API
 * server, and hands every change of what it derives to the store. What it watches: the node's ResourceSlices
 * ({@code spec.nodeName=<node>}); the slices of each pool that a wanted claim holds a device of and that is not the
 * node's own ({@code nodeSelector}, {@code allNodes}), only while such a claim is wanted; and the ResourceClaims of
 * each namespace that a wanted claim is in, while one is. No request of a caller makes an API request: answers come
 * from what the watches brought.
 *
 * <p>All of its state is kept on one thread of its own; the watches' threads and the callers only hand it work.
 */
public final class ResourceApiSource implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ResourceApiSource.class);
    private static final String SLICES = "/apis/resource.k8s.io/v1/resourceslices";

    private final KubeApi api;
    private final String node;
    private final Supplier<List<WantedClaim>> wanted;
    private final Consumer<DerivedClaims> sink;
    private final ResourceApiState state = new ResourceApiState();
    private final ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
        Thread made = new Thread(runnable, "dra-resource-api");
        made.setDaemon(true);
        return made;
    });
    private final Map<String, ListWatch> claimWatches = new HashMap<>();
    private final Map<String, ListWatch> sliceWatches = new HashMap<>();
    private final List<CompletableFuture<Void>> settledWaiters = new ArrayList<>();
    private DerivedClaims derived = DerivedClaims.NONE;
    private boolean refreshPending;
    private volatile boolean settled;

    /**
     * Starts watching the node's slices at once.
     *
     * @param wanted the claims to derive, asked again after every {@link #wantedChanged()}
     * @param sink takes every new {@link DerivedClaims}, on the source's thread
     */
    public ResourceApiSource(KubeApi api, String node, Supplier<List<WantedClaim>> wanted,
            Consumer<DerivedClaims> sink) {
        this.api = api;
        this.node = node;
        this.wanted = wanted;
        this.sink = sink;
        thread.execute(() -> {
            sliceWatches.put(ResourceApiState.NODE_FEED, watchSlices(ResourceApiState.NODE_FEED,
                    "spec.nodeName=" + node));
            refresh();
        });
    }

    /** The wanted claims changed (a pod came or went, or its claims changed): derive again. */
    public void wantedChanged() {
        thread.execute(this::scheduleRefresh);
    }

    /**
     * Whether every wanted claim's namespace has been listed and every pool its devices are of is settled: what
     * can be derived now has been handed to the store.
     */
    public boolean settled() {
        return settled;
    }

    /**
     * Derives the wanted claims as they are now and hands the result to the store; completes once it has, and every
     * namespace and pool they need was listed ({@link #settled()}), or after {@code bound} at the latest.
     */
    public CompletableFuture<Void> refreshNow(Duration bound) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        thread.execute(() -> {
            refresh();
            if (settled) {
                done.complete(null);
            } else {
                settledWaiters.add(done);
            }
        });
        return done.completeOnTimeout(null, bound.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        thread.execute(() -> {
            claimWatches.values().forEach(ListWatch::close);
            sliceWatches.values().forEach(ListWatch::close);
        });
        thread.shutdown();
    }

    private void scheduleRefresh() {
        if (!refreshPending) {
            refreshPending = true;
            thread.execute(this::refresh);
        }
    }

    /** Aligns the watches with what is wanted, derives, and hands a change to the store. On the source's thread. */
    private void refresh() {
        refreshPending = false;
        settledWaiters.removeIf(CompletableFuture::isDone); // given up on at their bound
        state.wanted(wanted.get());
        Set<String> namespaces = state.namespaces();
        claimWatches.keySet().removeIf(namespace -> {
            if (namespaces.contains(namespace)) {
                return false;
            }
            claimWatches.get(namespace).close();
            state.dropNamespace(namespace);
            return true;
        });
        namespaces.forEach(namespace -> claimWatches.computeIfAbsent(namespace, this::watchClaims));
        Set<String> poolFeeds = new java.util.HashSet<>();
        state.foreignPools().forEach(pool -> {
            String feed = ResourceApiState.poolFeed(pool);
            poolFeeds.add(feed);
            sliceWatches.computeIfAbsent(feed, f -> watchSlices(f,
                    "spec.nodeName=,spec.driver=" + pool.driver() + ",spec.pool.name=" + pool.pool()));
        });
        sliceWatches.keySet().removeIf(feed -> {
            if (feed.equals(ResourceApiState.NODE_FEED) || poolFeeds.contains(feed)) {
                return false;
            }
            sliceWatches.get(feed).close();
            state.dropSliceFeed(feed);
            return true;
        });
        DerivedClaims next = state.derive();
        if (!next.equals(derived)) {
            derived = next;
            sink.accept(next);
        }
        settled = state.settled();
        if (settled) {
            settledWaiters.forEach(waiter -> waiter.complete(null));
            settledWaiters.clear();
        }
    }

    private ListWatch watchClaims(String namespace) {
        return ListWatch.start(api, "/apis/resource.k8s.io/v1/namespaces/" + namespace + "/resourceclaims", "",
                new Feed(() -> claimWatches.containsKey(namespace),
                        objects -> state.claimsListed(namespace, objects.values()), state::claimChanged,
                        state::claimDeleted),
                "dra-claims", LOG, "the resource claims of namespace " + namespace);
    }

    private ListWatch watchSlices(String feed, String fieldSelector) {
        return ListWatch.start(api, SLICES, ListWatch.fieldSelector(fieldSelector),
                new Feed(() -> sliceWatches.containsKey(feed), objects -> state.slicesListed(feed, objects.values()),
                        object -> state.sliceChanged(feed, object), object -> state.sliceDeleted(feed, object)),
                "dra-slices", LOG, "the resource slices of " + (feed.equals(ResourceApiState.NODE_FEED)
                        ? "node " + node : feed));
    }

    /**
     * A watch's news, applied on the source's thread while the watch is still wanted ({@code current}), then derived
     * again (once for a burst).
     */
    private final class Feed implements ListWatch.Listener {
        private final java.util.function.BooleanSupplier current;
        private final Consumer<Map<String, JsonNode>> listed;
        private final Consumer<JsonNode> changed;
        private final Consumer<JsonNode> deleted;

        Feed(java.util.function.BooleanSupplier current, Consumer<Map<String, JsonNode>> listed,
                Consumer<JsonNode> changed, Consumer<JsonNode> deleted) {
            this.current = current;
            this.listed = listed;
            this.changed = changed;
            this.deleted = deleted;
        }

        @Override
        public void listed(Map<String, JsonNode> objects) {
            apply(() -> listed.accept(objects));
        }

        @Override
        public void changed(String key, JsonNode object) {
            apply(() -> changed.accept(object));
        }

        @Override
        public void deleted(String key, JsonNode object) {
            apply(() -> deleted.accept(object));
        }

        private void apply(Runnable change) {
            thread.execute(() -> {
                if (!current.getAsBoolean()) {
                    return;
                }
                try {
                    change.run();
                } catch (RuntimeException e) {
                    LOG.errorf(e, "An object of the resource API could not be taken in; it is left out");
                }
                scheduleRefresh();
            });
        }
    }
}
