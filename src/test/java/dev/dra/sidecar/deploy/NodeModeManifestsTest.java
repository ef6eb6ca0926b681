package dev.dra.sidecar.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The node-mode agent as deploy/kubernetes/node writes it: least privilege (its own network namespace, non-root, no
 * capabilities, read-only root filesystem and mounts, RBAC for pods and token reviews only), reached at the node's
 * address through its Service's node port, which leads to the same node's agent, rolled with a surge, the
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
        assertEquals(null, pod.getHostNetwork(), "the agent has a network namespace of its own");
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
    void theAgentServesThroughItsNodesPortRollsWithASurgeAndIsProbedOnTheManagementPort() throws Exception {
        DaemonSet daemonSet = only("daemonset.yaml", DaemonSet.class);
        Container agent = daemonSet.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals("node", env(agent, "DRA_METADATA_MODE"));
        assertEquals("fieldRef:status.hostIP", env(agent, "HOST_IP"));
        assertEquals("fieldRef:spec.nodeName", env(agent, "NODE_NAME"));
        assertEquals("$(HOST_IP)", env(agent, "DRA_API_ALLOWED_HOSTS"), "pods call the node's address");
        assertEquals("0.0.0.0", env(agent, "QUARKUS_HTTP_HOST"), "the API on the pod's addresses, not loopback");
        assertEquals(null, agent.getEnv().stream().filter(e -> e.getName().equals("QUARKUS_MANAGEMENT_HOST"))
                .findFirst().orElse(null), "the management interface on the pod's addresses, its default");
        assertEquals("5s", env(agent, "QUARKUS_SHUTDOWN_DELAY"));
        assertEquals(Map.of("api", 8089, "management", 9000), agent.getPorts().stream()
                .collect(Collectors.toMap(p -> p.getName(), p -> p.getContainerPort())));
        agent.getPorts().forEach(port -> assertEquals(null, port.getHostPort(), "no host port blocks a surge"));
        var rolling = daemonSet.getSpec().getUpdateStrategy().getRollingUpdate();
        assertEquals(1, rolling.getMaxSurge().getIntVal());
        assertEquals(0, rolling.getMaxUnavailable().getIntVal());

        Service service = only("service.yaml", Service.class);
        assertEquals("NodePort", service.getSpec().getType());
        assertEquals("Local", service.getSpec().getExternalTrafficPolicy(), "a node's port leads to its own agent");
        assertEquals("Local", service.getSpec().getInternalTrafficPolicy());
        assertEquals(daemonSet.getSpec().getSelector().getMatchLabels(), service.getSpec().getSelector());
        assertEquals(daemonSet.getMetadata().getNamespace(), service.getMetadata().getNamespace());
        assertEquals(List.of("api:8089->api@30089"), service.getSpec().getPorts().stream().map(p -> p.getName() + ":"
                + p.getPort() + "->" + p.getTargetPort().getStrVal() + "@" + p.getNodePort()).toList());
        assertTrue(Files.readString(NODE.resolve("policy.yaml"))
                .contains("'http://$(DRA_METADATA_HOST):30089'"), "the injection's URL names the node port");
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

    /** hostPath is refused by Baseline and Restricted: the namespace enforces Privileged, and says why. */
    @Test
    void theAgentsNamespaceEnforcesPrivileged() throws Exception {
        Namespace namespace = only("namespace.yaml", Namespace.class);
        assertEquals("privileged", namespace.getMetadata().getLabels().get("pod-security.kubernetes.io/enforce"));
        assertEquals(namespace.getMetadata().getName(),
                only("daemonset.yaml", DaemonSet.class).getMetadata().getNamespace());
    }
}
