package dev.dra.sidecar.kube;

import dev.dra.sidecar.testsupport.Unavailable;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Gives an in-process {@code @QuarkusTest} a node-mode agent on a real API server: before the application starts, a
 * kube-apiserver of the test class's own (its state and logs in {@code target/<state>}, init argument
 * {@code state}), the agent's identity as {@code deploy/kubernetes/node} makes it (its namespace, ServiceAccount,
 * ClusterRole and binding) with a token of that ServiceAccount, and an empty CDI directory. The application runs in
 * node mode for node {@value #NODE} with them; the test gets a {@link NodeCluster} in its field of that type.
 *
 * <p>Without a Go toolchain there is no API server: the application starts in sidecar mode, and the cluster says why
 * it is unavailable (the test skips with that reason).
 */
public class NodeAgentCluster implements QuarkusTestResourceLifecycleManager {

    /** The node the agent serves. */
    static final String NODE = "node-a";
    /** Verdicts outlive every test's steps: a test sees a reused verdict only where it asks for one. */
    static final String TOKEN_CACHE_TTL = "5m";
    private static final String AGENT_NAMESPACE = "dra-metadata-node";
    private static final String AGENT_ACCOUNT = "dra-metadata-sidecar";

    private String state = "kube-apiserver-node-agent";
    private NodeCluster cluster;

    @Override
    public void init(Map<String, String> args) {
        state = args.getOrDefault("state", state);
    }

    @Override
    public Map<String, String> start() {
        KubeApiServer server;
        try {
            server = KubeApiServer.start(Path.of("target", state));
        } catch (Unavailable e) {
            System.err.println("SKIPPED the node-mode agent's tests against a real API server: " + e.getMessage());
            cluster = NodeCluster.unavailable(e.getMessage());
            return Map.of();
        }
        KubernetesClient client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(server.kubeconfig))
                .build();
        try {
            Path files = Files.createTempDirectory("dra-node-agent");
            Path token = Files.writeString(files.resolve("token"), agentToken(client));
            Path ca = Files.write(files.resolve("ca.crt"),
                    Base64.getDecoder().decode(client.getConfiguration().getCaCertData()));
            Path cdi = Files.createDirectories(files.resolve("cdi"));
            cluster = new NodeCluster(server, client, NODE, new CdiClaims(cdi, files.resolve("host")), token);
            return Map.of(
                    "dra.metadata.mode", "node",
                    "dra.metadata.cdi-dir", cdi.toString(),
                    "dra.metadata.node.name", NODE,
                    "dra.metadata.node.api-server", client.getConfiguration().getMasterUrl(),
                    "dra.metadata.node.token-file", token.toString(),
                    "dra.metadata.node.ca-file", ca.toString(),
                    "dra.metadata.node.token-cache-ttl", TOKEN_CACHE_TTL);
        } catch (IOException e) {
            client.close();
            server.close();
            throw new UncheckedIOException(e);
        }
    }

    /** The agent's ServiceAccount with its RBAC, from the manifests, and a token of it for the API server. */
    private static String agentToken(KubernetesClient client) throws IOException {
        for (String file : List.of("namespace.yaml", "serviceaccount.yaml", "rbac.yaml")) {
            try (InputStream objects = Files.newInputStream(Kustomization.NODE_MODE_DIR.resolve(file))) {
                for (HasMetadata object : client.load(objects).items()) {
                    client.resource(object).createOr(NonDeletingOperation::update);
                }
            }
        }
        return client.serviceAccounts().inNamespace(AGENT_NAMESPACE).withName(AGENT_ACCOUNT)
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
                .getStatus().getToken();
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(cluster, field -> field.getType().getName().equals(NodeCluster.class.getName()));
    }

    @Override
    public void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }
}
