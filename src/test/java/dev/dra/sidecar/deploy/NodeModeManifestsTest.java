package dev.dra.sidecar.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The node-mode agent as deploy/kubernetes/node writes it: least privilege (non-root, no capabilities, read-only root
 * filesystem and mounts, RBAC for pods and token reviews only), the node's address from the downward API, the
 * management port for probes, and the Pod Security level the docs name. (The chart's render equals it: HelmChartIT;
 * a real API server admits it: kube.NodeModeAdmissionIT.)
 */
class NodeModeManifestsTest {

    private static final Path NODE = Path.of("deploy", "kubernetes", "node");

    private static <T extends HasMetadata> T only(String file, Class<T> type) throws Exception {
        return StrictKubernetesYaml.parseFile(NODE.resolve(file)).stream().filter(type::isInstance).map(type::cast)
                .findFirst().orElseThrow();
    }

    private static String env(Container container, String name) {
        EnvVar env = container.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst().orElseThrow();
        return env.getValueFrom() != null ? "fieldRef:" + env.getValueFrom().getFieldRef().getFieldPath() : env.getValue();
    }

    @Test
    void theAgentRunsWithLeastPrivilegeAndReadsTheHostReadOnly() throws Exception {
        PodSpec pod = only("daemonset.yaml", DaemonSet.class).getSpec().getTemplate().getSpec();
        assertTrue(pod.getHostNetwork(), "the node's address is the agent's");
        assertTrue(pod.getSecurityContext().getRunAsNonRoot());
        assertEquals(1001L, pod.getSecurityContext().getRunAsUser());
        assertEquals("RuntimeDefault", pod.getSecurityContext().getSeccompProfile().getType());
        assertEquals(1, pod.getContainers().size());
        Container agent = pod.getContainers().get(0);
        assertFalse(agent.getSecurityContext().getAllowPrivilegeEscalation());
        assertTrue(agent.getSecurityContext().getReadOnlyRootFilesystem());
        assertEquals(List.of("ALL"), agent.getSecurityContext().getCapabilities().getDrop());
        assertEquals(null, agent.getSecurityContext().getPrivileged());
        for (VolumeMount mount : agent.getVolumeMounts()) {
            assertTrue(mount.getReadOnly(), mount.getName());
            String hostPath = pod.getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst()
                    .orElseThrow().getHostPath().getPath();
            assertEquals(hostPath, mount.getMountPath(), "mounted at its host path, as the CDI specs name it");
        }
        assertEquals(List.of("/var/run/cdi", "/var/lib/kubelet/plugins"),
                agent.getVolumeMounts().stream().map(VolumeMount::getMountPath).toList());
    }

    @Test
    void theAgentServesTheNodesAddressAndIsProbedOnTheManagementPort() throws Exception {
        Container agent = only("daemonset.yaml", DaemonSet.class).getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals("node", env(agent, "DRA_METADATA_MODE"));
        assertEquals("fieldRef:status.hostIP", env(agent, "HOST_IP"));
        assertEquals("fieldRef:spec.nodeName", env(agent, "NODE_NAME"));
        assertEquals("$(HOST_IP)", env(agent, "QUARKUS_HTTP_HOST"));
        assertEquals("$(HOST_IP)", env(agent, "DRA_API_ALLOWED_HOSTS"));
        assertEquals(Map.of("api", 8089, "management", 9000), agent.getPorts().stream()
                .collect(Collectors.toMap(p -> p.getName(), p -> p.getContainerPort())));
        for (var probe : List.of(agent.getStartupProbe(), agent.getReadinessProbe(), agent.getLivenessProbe())) {
            assertEquals("management", probe.getHttpGet().getPort().getStrVal(), probe.toString());
        }
    }

    @Test
    void theAgentMayWatchPodsClaimsAndSlicesReviewTokensAndReadTheIssuersKeysAndNothingElse() throws Exception {
        List<PolicyRule> rules = only("rbac.yaml", ClusterRole.class).getRules();
        assertEquals(List.of("|pods||get,list,watch", "authentication.k8s.io|tokenreviews||create",
                "resource.k8s.io|resourceclaims,resourceslices||get,list,watch",
                "||/.well-known/openid-configuration,/openid/v1/jwks|get"), rules.stream()
                .map(r -> String.join(",", r.getApiGroups()) + "|" + String.join(",", r.getResources()) + "|"
                        + String.join(",", r.getNonResourceURLs()) + "|" + String.join(",", r.getVerbs())).toList());
        rules.forEach(r -> assertTrue(r.getResourceNames().isEmpty(), r.toString()));
    }

    /** hostNetwork and hostPath are refused by Baseline and Restricted: the namespace enforces Privileged, says why. */
    @Test
    void theAgentsNamespaceEnforcesPrivileged() throws Exception {
        Namespace namespace = only("namespace.yaml", Namespace.class);
        assertEquals("privileged", namespace.getMetadata().getLabels().get("pod-security.kubernetes.io/enforce"));
        assertEquals(namespace.getMetadata().getName(),
                only("daemonset.yaml", DaemonSet.class).getMetadata().getNamespace());
    }
}
