package dev.dra.sidecar.identity;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dra.sidecar.kube.KubeApi;
import dev.dra.sidecar.kube.ListWatch;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * This node's pods, from a list and a watch of the API server restricted to the node
 * ({@code fieldSelector=spec.nodeName=<node>}, kept by a {@link ListWatch} on the thread {@code dra-node-pods}).
 * Holds one small {@link PodInfo} per pod of the node, keyed by namespace and name, and nothing else: a pod the
 * watch has not brought yet is fetched when it asks ({@link #pod}).
 */
final class NodePods implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(NodePods.class);

    private final KubeApi api;
    private final String node;
    private final Map<String, PodInfo> pods = new ConcurrentHashMap<>();
    private final ListWatch watch;

    NodePods(KubeApi api, String node) {
        this.api = api;
        this.node = node;
        this.watch = ListWatch.start(api, "/api/v1/pods", ListWatch.fieldSelector("spec.nodeName=" + node),
                new Watched(), "dra-node-pods", LOG, "the pods of node " + node);
    }

    String node() {
        return node;
    }

    /** The pods known now, at most the node's. */
    int size() {
        return pods.size();
    }

    /**
     * The pod {@code namespace/name} as known now, or fetched from the API server when it is not known, or known
     * with another UID, or {@code fresh} is asked for (it lacks something the caller expects, such as a claim
     * status); completes with {@code null} when the API server has no such pod.
     */
    CompletableFuture<PodInfo> pod(String namespace, String name, String uid, boolean fresh) {
        PodInfo known = pods.get(key(namespace, name));
        if (known != null && known.uid().equals(uid) && !fresh) {
            return CompletableFuture.completedFuture(known);
        }
        return api.get("/api/v1/namespaces/" + namespace + "/pods/" + name).handle((pod, failure) -> {
            if (failure != null) {
                Throwable cause = KubeApi.cause(failure);
                if (cause instanceof KubeApi.Failed failed && failed.status() == 404) {
                    return null;
                }
                throw new IllegalStateException(cause.getMessage(), cause);
            }
            PodInfo info = PodInfo.of(pod);
            if (node.equals(info.nodeName())) {
                pods.put(key(namespace, name), info);
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

    /** Keeps {@link #pods} as the list and the watch say; a deletion removes only the pod of the deleted UID. */
    private final class Watched implements ListWatch.Listener {

        @Override
        public void listed(Map<String, JsonNode> objects) {
            Map<String, PodInfo> listedPods = new HashMap<>();
            objects.forEach((key, pod) -> listedPods.put(key, PodInfo.of(pod)));
            pods.keySet().retainAll(listedPods.keySet());
            pods.putAll(listedPods);
        }

        @Override
        public void changed(String key, JsonNode pod) {
            pods.put(key, PodInfo.of(pod));
        }

        @Override
        public void deleted(String key, JsonNode pod) {
            PodInfo info = PodInfo.of(pod);
            pods.computeIfPresent(key, (k, known) -> known.uid().equals(info.uid()) ? null : known);
        }
    }
}
