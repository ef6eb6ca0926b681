package dev.dra.sidecar.kube;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;

/**
 * What a node-mode test has of {@link NodeAgentCluster}'s cluster: the pods it makes on the agent's node and the
 * tokens they present ({@link #pods()}), and the drivers' files on the node ({@link #cdi()}).
 */
public final class NodeCluster implements AutoCloseable {

    private final KubeApiServer server;
    private final KubernetesClient client;
    private final ClusterPods pods;
    private final CdiClaims cdi;
    private final Path agentToken;
    private final String unavailable;

    NodeCluster(KubeApiServer server, KubernetesClient client, String node, CdiClaims cdi, Path agentToken) {
        this.server = server;
        this.client = client;
        this.pods = new ClusterPods(client, node);
        this.cdi = cdi;
        this.agentToken = agentToken;
        this.unavailable = null;
    }

    private NodeCluster(String unavailable) {
        this.server = null;
        this.client = null;
        this.pods = null;
        this.cdi = null;
        this.agentToken = null;
        this.unavailable = unavailable;
    }

    /** A cluster that could not be had on this machine, for {@code why}. */
    static NodeCluster unavailable(String why) {
        return new NodeCluster(why);
    }

    /** Skips the calling test, saying why, when this machine cannot run the API server. */
    void assumeAvailable() {
        assumeTrue(unavailable == null, unavailable);
    }

    ClusterPods pods() {
        return pods;
    }

    CdiClaims cdi() {
        return cdi;
    }

    /** Closes the client, then stops the API server; a cluster that never was has neither. */
    @Override
    public void close() {
        try (KubeApiServer stopped = server; KubernetesClient closed = client) {
            // try-with-resources closes them in reverse order and passes over a null one
        }
    }
}
