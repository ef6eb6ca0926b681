package dev.dra.sidecar.kube;

import dev.dra.sidecar.testsupport.Unavailable;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gives an in-process {@code @QuarkusTest} a sidecar with the resource-API source on, against a real API server: a
 * namespace whose service accounts have exactly the RBAC docs/resource-api.md writes out for it (get, list and watch on
 * {@code resourceclaims} in the namespace and on {@code resourceslices}), the pod {@value #POD} of node
 * {@value #NODE} with a direct claim {@code gpu-claim} and a template claim {@code nic}, a token of the pod's
 * service account, and an empty metadata tree (no driver wrote a file). The sidecar expects {@code claims/gpu-claim}
 * and {@code template-claims/nic/nic}. The test gets a {@link Cluster} in its field of that type.
 */
public class SidecarResourceApiCluster implements QuarkusTestResourceLifecycleManager {

    static final String NODE = "node-a";
    static final String POD = "reader";
    /** The namespace the RBAC of docs/resource-api.md is written for. */
    private static final String DOCUMENTED_NAMESPACE = "my-apps";

    /** What the test works with; {@code unavailable} says why there is no API server here. */
    record Cluster(KubernetesClient client, ResourceObjects resources, String namespace, Pod pod, String unavailable) {}

    private KubeApiServer server;
    private Cluster cluster;

    @Override
    public Map<String, String> start() {
        try {
            server = KubeApiServer.start(Path.of("target", "kube-apiserver-sidecar-resource-api"));
        } catch (Unavailable e) {
            System.err.println("SKIPPED the sidecar's resource-API source against a real API server: " + e.getMessage());
            cluster = new Cluster(null, null, null, null, e.getMessage());
            return Map.of();
        }
        KubernetesClient client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(server.kubeconfig))
                .build();
        ClusterPods pods = new ClusterPods(client, NODE);
        String namespace = pods.namespace("sidecar");
        grantTheSource(client, namespace);
        Pod pod = pods.start(namespace, InjectionPods.withClaims(POD, InjectionPods.direct("gpu", "gpu-claim"),
                InjectionPods.template("nic", "nic-template")), ClusterPods.LOOPBACK);
        try {
            Path files = Files.createTempDirectory("dra-sidecar-resource-api");
            Path token = Files.writeString(files.resolve("token"), client.serviceAccounts().inNamespace(namespace)
                    .withName(ClusterPods.ACCOUNT).tokenRequest(new TokenRequestBuilder().withNewSpec()
                            .withExpirationSeconds(3600L).endSpec().build()).getStatus().getToken());
            Path ca = Files.write(files.resolve("ca.crt"),
                    Base64.getDecoder().decode(client.getConfiguration().getCaCertData()));
            Path root = Files.createDirectories(files.resolve("dra-device-attributes"));
            cluster = new Cluster(client, new ResourceObjects(client, NODE), namespace, pod, null);
            return Map.of(
                    "dra.metadata.root", root.toString(),
                    "dra.metadata.expected-claims", "claims/gpu-claim,template-claims/nic/nic",
                    "dra.metadata.resource-api.enabled", "true",
                    "dra.metadata.resource-api.namespace", namespace,
                    "dra.metadata.resource-api.pod-uid", pod.getMetadata().getUid(),
                    "dra.metadata.node.name", NODE,
                    "dra.metadata.kube.api-server", client.getConfiguration().getMasterUrl(),
                    "dra.metadata.kube.token-file", token.toString(),
                    "dra.metadata.kube.ca-file", ca.toString());
        } catch (IOException e) {
            client.close();
            server.close();
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The RBAC docs/resource-api.md writes out (its YAML block, for the namespace {@value #DOCUMENTED_NAMESPACE}),
     * for {@code namespace}: what the docs promise is enough is what the sidecar gets.
     */
    private static void grantTheSource(KubernetesClient client, String namespace) {
        try {
            Matcher block = Pattern.compile("```yaml\n(.*?)```", Pattern.DOTALL)
                    .matcher(Files.readString(Path.of("docs", "resource-api.md")));
            if (!block.find()) {
                throw new IllegalStateException("docs/resource-api.md writes out no RBAC");
            }
            String rbac = block.group(1).replace(DOCUMENTED_NAMESPACE, namespace);
            for (HasMetadata object : client.load(new ByteArrayInputStream(rbac.getBytes(StandardCharsets.UTF_8)))
                    .items()) {
                client.resource(object).create();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(cluster, field -> field.getType().getName().equals(Cluster.class.getName()));
    }

    @Override
    public void stop() {
        if (cluster != null && cluster.client() != null) {
            cluster.client().close();
        }
        if (server != null) {
            server.close();
        }
    }
}
