package dev.dra.sidecar.identity;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dra.sidecar.kube.KubeApi;
import dev.dra.sidecar.kube.ListWatch;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jboss.logging.Logger;

/**
 * This node's pods, from a list and a watch of the API server restricted to the node
 * ({@code fieldSelector=spec.nodeName=<node>}, kept by a {@link ListWatch} on the thread {@code dra-node-pods}).
 * Holds one small {@link PodInfo} per pod of the node, keyed by namespace and name, and the UIDs of the last
 * {@value #GONE_KEPT} pods the watch saw deleted (a UID is never used again): a pod the watch has not brought yet is
 * fetched when it asks ({@link #pod}), within a bound. Listeners ({@link #onChange}) hear of every change of what it
 * holds.
 */
public final class NodePods implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(NodePods.class);

    /** How many deleted pods' UIDs are kept. */
    static final int GONE_KEPT = 4096;

    private final KubeApi api;
    private final String node;
    private final Duration lookupTimeout;
    private final Map<String, Boolean> gone = Collections.synchronizedMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > GONE_KEPT;
        }
    });
    private final Map<String, PodInfo> pods = new ConcurrentHashMap<>();
    private final ListWatch watch;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean listed;

    /**
     * @param lookupTimeout the longest a pod's fetch from the API server may take ({@link #pod})
     */
    NodePods(KubeApi api, String node, Duration lookupTimeout) {
        this.api = api;
        this.node = node;
        this.lookupTimeout = lookupTimeout;
        this.watch = ListWatch.start(api, "/api/v1/pods", ListWatch.fieldSelector("spec.nodeName=" + node),
                new Watched(), "dra-node-pods", LOG, "the pods of node " + node);
    }

    String node() {
        return node;
    }

    /**
     * Whether the node's pods have been listed once: from then on every pod of the node that existed at the list is
     * known without a fetch, also while a later watch fails.
     */
    public boolean listed() {
        return listed;
    }

    /** Whether the watch is open now: a change of a pod known reaches {@link #all} within moments. */
    boolean watching() {
        return watch.live();
    }

    /** The pods known now, at most the node's. */
    int size() {
        return pods.size();
    }

    /** The pods known now. */
    public Collection<PodInfo> all() {
        return List.copyOf(pods.values());
    }

    /**
     * Calls {@code listener} after each change of the pods known (a list, an event, a pod fetched), on the thread that
     * made it; it must not block.
     */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    private void notifyListeners() {
        listeners.forEach(Runnable::run);
    }

    /**
     * The pod {@code namespace/name} as known now, or fetched from the API server when it is not known, or known
     * with another UID, or {@code fresh} is asked for (it lacks something the caller expects, such as a claim
     * status); completes with {@code null} when the watch saw the pod of {@code uid} deleted (at once, without a
     * fetch) or the API server has no such pod. A fetch is answered within the lookup timeout, or fails.
     */
    CompletableFuture<PodInfo> pod(String namespace, String name, String uid, boolean fresh) {
        if (gone.containsKey(uid)) {
            return CompletableFuture.completedFuture(null);
        }
        PodInfo known = pods.get(key(namespace, name));
        if (known != null && known.uid().equals(uid) && !fresh) {
            return CompletableFuture.completedFuture(known);
        }
        return api.get("/api/v1/namespaces/" + namespace + "/pods/" + name, lookupTimeout).handle((pod, failure) -> {
            if (failure != null) {
                Throwable cause = KubeApi.cause(failure);
                if (cause instanceof KubeApi.Failed failed && failed.status() == 404) {
                    return null;
                }
                throw new IllegalStateException(cause.getMessage(), cause);
            }
            PodInfo info = PodInfo.of(pod);
            if (node.equals(info.nodeName()) && !gone.containsKey(info.uid())) {
                pods.put(key(namespace, name), info);
                notifyListeners();
            }
            return info;
        });
    }

    @Override
    public void close() {
        watch.close();
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }

    /**
     * Keeps {@link #pods} as the list and the watch say; a deletion removes only the pod of the deleted UID, and keeps
     * that UID as gone. A pod missing from a new list is dropped but not kept as gone: the list may be older than a
     * pod fetched meanwhile.
     */
    private final class Watched implements ListWatch.Listener {

        @Override
        public void listed(Map<String, JsonNode> objects) {
            Map<String, PodInfo> listedPods = new HashMap<>();
            objects.forEach((key, pod) -> listedPods.put(key, PodInfo.of(pod)));
            pods.keySet().retainAll(listedPods.keySet());
            pods.putAll(listedPods);
            listed = true;
            notifyListeners();
        }

        @Override
        public void changed(String key, JsonNode pod) {
            pods.put(key, PodInfo.of(pod));
            notifyListeners();
        }

        @Override
        public void deleted(String key, JsonNode pod) {
            PodInfo info = PodInfo.of(pod);
            gone.put(info.uid(), Boolean.TRUE);
            pods.computeIfPresent(key, (k, known) -> known.uid().equals(info.uid()) ? null : known);
            notifyListeners();
        }
    }
}
