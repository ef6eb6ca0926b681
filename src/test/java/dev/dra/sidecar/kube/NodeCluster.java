package dev.dra.sidecar.kube;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * What a node-mode test has of {@link NodeAgentCluster}'s cluster: the pods it makes on the agent's node and the
 * tokens they present ({@link #pods()}), the drivers' files on the node ({@link #cdi()}), the agent's watch as the API
 * server sees it, the agent's own calls as its metrics count them, and the two ways the agent loses the API server:
 * its own token unreadable, and the API server stopped for a while.
 */
public final class NodeCluster implements AutoCloseable {

    private final KubeApiServer server;
    private final KubernetesClient client;
    private final ClusterPods pods;
    private final CdiClaims cdi;
    private final ResourceObjects resources;
    private final Path agentToken;
    private final int podWatchesBeforeTheAgent;
    private final String unavailable;

    NodeCluster(KubeApiServer server, KubernetesClient client, String node, CdiClaims cdi, Path agentToken) {
        this.server = server;
        this.client = client;
        this.pods = new ClusterPods(client, node);
        this.cdi = cdi;
        this.resources = new ResourceObjects(client, node);
        this.agentToken = agentToken;
        this.podWatchesBeforeTheAgent = clusterWidePodWatches(client);
        this.unavailable = null;
    }

    private NodeCluster(String unavailable) {
        this.server = null;
        this.client = null;
        this.pods = null;
        this.cdi = null;
        this.resources = null;
        this.agentToken = null;
        this.podWatchesBeforeTheAgent = 0;
        this.unavailable = unavailable;
    }

    /** A cluster that could not be had on this machine, for {@code why}. */
    static NodeCluster unavailable(String why) {
        return new NodeCluster(why);
    }

    /**
     * Fails the calling test when {@code cluster} was not given to it, and skips it, saying why, when this machine
     * cannot run the API server.
     */
    static void assumeAvailable(NodeCluster cluster) {
        assertNotNull(cluster, "NodeAgentCluster gives the test its cluster");
        assumeTrue(cluster.unavailable == null, cluster.unavailable);
    }

    ClusterPods pods() {
        return pods;
    }

    CdiClaims cdi() {
        return cdi;
    }

    /** The resource API's objects of the node's drivers: slices, allocated claims, device status. */
    ResourceObjects resources() {
        return resources;
    }

    /**
     * The watches of pods across all namespaces that the API server holds now beyond those it held before the
     * application started (its own informer's): the agent's, since nothing else here watches every namespace's pods.
     */
    int agentPodWatches() {
        return clusterWidePodWatches(client) - podWatchesBeforeTheAgent;
    }

    /** The API server's stable gauge {@code apiserver_longrunning_requests} of cluster-wide pod watches. */
    private static int clusterWidePodWatches(KubernetesClient client) {
        return client.raw("/metrics").lines().filter(line -> line.startsWith("apiserver_longrunning_requests{")
                && line.contains("resource=\"pods\"") && line.contains("scope=\"cluster\"")
                && line.contains("verb=\"WATCH\"")).mapToInt(line -> (int) Double.parseDouble(
                        line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    /** Moves the agent's token file away (the agent reads it for every call) and gives a way to put it back. */
    Runnable hideAgentToken() {
        Path hidden = agentToken.resolveSibling(agentToken.getFileName() + ".hidden");
        move(agentToken, hidden);
        return () -> move(hidden, agentToken);
    }

    /**
     * Stops the API server (not its etcd) and returns once connections to it are refused; the returned action starts
     * it again at the same address and returns once it is ready.
     */
    Runnable stopApiServer() {
        return server.stopForAWhile();
    }

    /** Closes the client, then stops the API server (again, if it is stopped); a cluster that never was has neither. */
    @Override
    public void close() {
        try (KubeApiServer stopped = server; KubernetesClient closed = client) {
            // try-with-resources closes them in reverse order and passes over a null one
        }
    }

    private static void move(Path from, Path to) {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
