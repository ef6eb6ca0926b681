package dev.dra.sidecar.identity;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dra.sidecar.kube.KubeApi;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * This node's pods, from a list and a watch of the API server restricted to the node
 * ({@code fieldSelector=spec.nodeName=<node>}), on one thread that lists again whenever the watch ends. Holds one
 * small {@link PodInfo} per pod of the node, keyed by namespace and name, and nothing else: a pod the watch has not
 * brought yet is fetched when it asks ({@link #pod}).
 */
final class NodePods implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(NodePods.class);
    private static final long RETRY_MILLIS = 1000;

    private final KubeApi api;
    private final String node;
    private final String selector;
    private final Map<String, PodInfo> pods = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    NodePods(KubeApi api, String node) {
        this.api = api;
        this.node = node;
        this.selector = "fieldSelector=" + URLEncoder.encode("spec.nodeName=" + node, StandardCharsets.UTF_8);
        this.thread = new Thread(this::run, "dra-node-pods");
        thread.setDaemon(true);
        thread.start();
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
        running = false;
        thread.interrupt();
    }

    private void run() {
        while (running) {
            try {
                String version = list();
                api.watch("/api/v1/pods?" + selector + "&watch=true&allowWatchBookmarks=true&resourceVersion="
                        + version, this::event);
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (!running) {
                    return;
                }
                LOG.warnf("Watch of the pods of node %s failed, listing again in %d ms: %s", node, RETRY_MILLIS,
                        e.getMessage());
                try {
                    TimeUnit.MILLISECONDS.sleep(RETRY_MILLIS);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    /** Lists the node's pods, replaces what is known with them, and gives the list's resourceVersion. */
    private String list() throws Exception {
        JsonNode list = api.get("/api/v1/pods?" + selector).get(30, TimeUnit.SECONDS);
        Map<String, PodInfo> listedPods = new HashMap<>();
        list.path("items").forEach(pod -> {
            PodInfo info = PodInfo.of(pod);
            listedPods.put(key(info.namespace(), info.name()), info);
        });
        pods.keySet().retainAll(listedPods.keySet());
        pods.putAll(listedPods);
        return list.path("metadata").path("resourceVersion").asText();
    }

    private void event(JsonNode event) {
        String type = event.path("type").asText();
        JsonNode object = event.path("object");
        switch (type) {
            case "ADDED", "MODIFIED" -> {
                PodInfo info = PodInfo.of(object);
                pods.put(key(info.namespace(), info.name()), info);
            }
            case "DELETED" -> {
                PodInfo info = PodInfo.of(object);
                pods.computeIfPresent(key(info.namespace(), info.name()),
                        (key, known) -> known.uid().equals(info.uid()) ? null : known);
            }
            case "ERROR" -> throw new IllegalStateException("watch error: " + object.path("message").asText());
            default -> { } // BOOKMARK
        }
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
