package dev.dra.sidecar.kube;

import static dev.dra.sidecar.kube.InjectionPods.app;
import static dev.dra.sidecar.kube.InjectionPods.direct;
import static dev.dra.sidecar.kube.InjectionPods.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.Eventually;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Node mode's manifests (deploy/kubernetes/node) on a real API server: admitted with no warning, the agent's pod
 * needs exactly what the docs say of Privileged and nothing else Restricted refuses, and the injection gives each
 * container and init container of an opted-in pod that lists a claim or requests an extended resource a token of its
 * own (audience {@code dra-metadata-sidecar/<container>}), its mount and the URL, the other containers nothing, and
 * adds nothing else. In sidecar mode, an opted-in pod with extended resources is created with a warning that points
 * to node mode.
 */
class NodeModeAdmissionIT {

    @RegisterExtension
    static final KubeApiServerExtension API = new KubeApiServerExtension();

    private static final Kustomization NODE_MODE = Kustomization.nodeMode(API);
    /** What every volume the injection adds is named after; no-token-yet looks for it. */
    private static final String TOKEN_VOLUME = "dra-metadata-token";
    private static final String TOKEN_DIR = "/var/run/secrets/dra-metadata";
    private static final String GPU = "example.com/gpu";
    private static String apps;

    @BeforeAll
    static void nodeMode() throws Exception {
        // The two modes' policies share their names: the sidecar injection of another class must not be there, nor
        // still be enforced.
        Injection sidecar = new Injection(API);
        sidecar.remove();
        sidecar.awaitNotEnforced();
        NODE_MODE.apply();
        apps = API.restrictedNamespace("node-apps", Map.of());
        Eventually.await(Duration.ofSeconds(30), () -> tokenVolumes(dryRun(apps, optedIn(claimed("probe")))),
                v -> !v.isEmpty(), "the node-mode injection enforced");
        API.warnings();
    }

    /** Removes the policy and bindings (the next class applies its own), the agent's objects and not the namespace. */
    @AfterAll
    static void removeNodeMode() throws Exception {
        NODE_MODE.remove();
    }

    private static Pod optedIn(Pod pod) {
        return new PodBuilder(pod).editMetadata().addToLabels(Injection.OPT_IN, "true").endMetadata().build();
    }

    private static Pod claimed(String name) {
        return InjectionPods.withClaims(name, direct("gpu", "gpu-claim"));
    }

    /** A pod with no claim whose app asks for one {@value #GPU}, as a DRA extended-resource pod does. */
    private static Pod extendedResource(String name) {
        Container container = new ContainerBuilder(app("app")).editResources()
                .withLimits(Map.of(GPU, new Quantity("1"))).endResources().build();
        return pod(name, List.of(), List.of(), List.of(container));
    }

    private static Pod dryRun(String namespace, Pod pod) {
        return API.client().pods().inNamespace(namespace).resource(pod).dryRun().create();
    }

    private static Pod create(String namespace, Pod pod) {
        Pod created = API.client().pods().inNamespace(namespace).resource(pod).create();
        assertEquals(List.of(), API.warnings(), "the API server's warnings");
        return created;
    }

    /** The volumes the injection added, in the pod's order. */
    private static List<Volume> tokenVolumes(Pod pod) {
        return pod.getSpec().getVolumes().stream().filter(v -> v.getName().startsWith(TOKEN_VOLUME)).toList();
    }

    /** The init containers, then the containers. */
    private static List<Container> allContainers(Pod pod) {
        List<Container> containers = new ArrayList<>(pod.getSpec().getInitContainers());
        containers.addAll(pod.getSpec().getContainers());
        return containers;
    }

    /**
     * The injection gave each container named in {@code volumes} (container name to the name of its token volume)
     * that volume, with a token for {@code dra-metadata-sidecar/<container>}, mounted read-only at the token's
     * directory in that container only, and the agent's address; every other container got nothing; no container
     * was added, and no volume but those.
     */
    private static void assertInjected(Pod created, Map<String, String> volumes) {
        assertEquals(new TreeSet<>(volumes.values()), new TreeSet<>(tokenVolumes(created).stream().map(Volume::getName)
                .toList()), "one token volume per listing container");
        for (Container container : allContainers(created)) {
            String name = container.getName();
            List<VolumeMount> mounts = container.getVolumeMounts().stream().filter(m -> m.getName().startsWith(
                    TOKEN_VOLUME) || m.getMountPath().startsWith(TOKEN_DIR)).toList();
            List<String> names = container.getEnv().stream().map(EnvVar::getName).toList();
            String volumeName = volumes.get(name);
            if (volumeName == null) {
                assertEquals(List.of(), mounts, "no token mount in " + name + ", which lists nothing");
                assertEquals(List.of(), names.stream().filter(n -> n.startsWith("DRA_METADATA_")).toList(), name);
                continue;
            }
            Volume volume = tokenVolumes(created).stream().filter(v -> v.getName().equals(volumeName)).findFirst()
                    .orElseThrow();
            assertEquals(1, volume.getProjected().getSources().size(), volumeName);
            var token = volume.getProjected().getSources().get(0).getServiceAccountToken();
            assertEquals("dra-metadata-sidecar/" + name, token.getAudience(), volumeName);
            assertEquals("token", token.getPath());
            assertEquals(3600L, token.getExpirationSeconds());
            assertEquals(1, mounts.size(), "one token mount in " + name + ": " + mounts);
            assertEquals(volumeName, mounts.get(0).getName(), "the token of " + name + " its own");
            assertEquals(TOKEN_DIR, mounts.get(0).getMountPath());
            assertTrue(mounts.get(0).getReadOnly(), name);
            EnvVar host = env(container, "DRA_METADATA_HOST");
            assertEquals("status.hostIP", host.getValueFrom().getFieldRef().getFieldPath(), name);
            assertEquals("http://$(DRA_METADATA_HOST):30089", env(container, "DRA_METADATA_URL").getValue(),
                    "the node port of the agent's Service");
            assertEquals(1, names.stream().filter(n -> n.equals("DRA_METADATA_URL")).count(), name);
            assertTrue(names.indexOf("DRA_METADATA_HOST") < names.indexOf("DRA_METADATA_URL"),
                    "the URL refers to the host defined before it: " + names);
        }
        assertEquals(List.of(), allContainers(created).stream().map(Container::getName)
                .filter(n -> n.equals(Pods.SIDECAR)).toList(), "no container added");
    }

    private static EnvVar env(Container container, String name) {
        return container.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst().orElse(null);
    }

    private static void assertNotInjected(Pod submitted, Pod created) {
        assertEquals(List.of(), tokenVolumes(created), "no token volume");
        Injection.assertUnchanged(submitted, created);
        allContainers(created).forEach(c -> assertNull(env(c, "DRA_METADATA_URL"), c.getName()));
    }

    @Test
    void anOptedInPodWithClaimsGetsATokenAndTheUrlInEachContainerKeepingItsOwn() {
        Container setup = new ContainerBuilder(app("setup", "gpu")).addNewEnv().withName("OWN").withValue("1").endEnv()
                .build();
        Container main = new ContainerBuilder(app("main", "gpu")).addNewVolumeMount().withName("scratch")
                .withMountPath("/scratch").endVolumeMount().build();
        Pod pod = new PodBuilder(pod("claims", List.of(direct("gpu", "gpu-claim")), List.of(setup), List.of(main)))
                .editSpec().addNewVolume().withName("scratch").withNewEmptyDir().endEmptyDir().endVolume().endSpec()
                .build();
        Pod created = create(apps, optedIn(pod));
        assertInjected(created, Map.of("main", "dra-metadata-token-0", "setup", "dra-metadata-token-init-0"));
        assertEquals("OWN", created.getSpec().getInitContainers().get(0).getEnv().get(0).getName(), "its own env first");
        assertTrue(created.getSpec().getContainers().get(0).getVolumeMounts().stream()
                .anyMatch(m -> m.getName().equals("scratch")), "its own mount kept");
        assertEquals(List.of("scratch", "dra-metadata-token-0", "dra-metadata-token-init-0"), created.getSpec()
                .getVolumes().stream().map(Volume::getName).toList(), "its own volume kept, one per container added");
    }

    /** The opt-in label, not the claims list: a pod whose only device is an extended resource opts in too. */
    @Test
    void anOptedInExtendedResourcePodWithoutClaimsGetsTheTokenAndTheUrl() {
        assertInjected(create(apps, optedIn(extendedResource("extended"))), Map.of("app", "dra-metadata-token-0"));
    }

    @Test
    void aNamespaceOptsInItsPods() {
        String namespace = API.restrictedNamespace("node-opted-in", Map.of(Injection.OPT_IN, "true"));
        assertInjected(create(namespace, extendedResource("by-namespace")), Map.of("app", "dra-metadata-token-0"));
    }

    /**
     * As Kubernetes mounts a claim's metadata only into the containers that list the claim: two containers listing
     * different claims and an init container listing one get a token each, for themselves, named by their index; a
     * container and an init container that list nothing get nothing. A second evaluation of the injected pod (what a
     * re-invocation does) changes nothing.
     */
    @Test
    void eachContainerThatListsAClaimGetsItsOwnTokenAndTheOthersNothing() {
        Container logger = new ContainerBuilder(app("logger")).addNewEnv().withName("OWN").withValue("1").endEnv()
                .build();
        Pod pod = optedIn(pod("per-container", List.of(direct("gpu", "gpu-claim"), direct("nic", "nic-claim")),
                List.of(app("prepare"), app("setup", "gpu")),
                List.of(app("trainer", "gpu"), logger, app("evaluator", "nic"))));
        Pod created = create(apps, pod);
        assertInjected(created, Map.of("trainer", "dra-metadata-token-0", "evaluator", "dra-metadata-token-2",
                "setup", "dra-metadata-token-init-1"));
        assertEquals(List.of("dra-metadata-token-0", "dra-metadata-token-2", "dra-metadata-token-init-1"),
                created.getSpec().getVolumes().stream().map(Volume::getName).toList(), "the containers', then the "
                + "init containers' tokens");
        assertEquals(List.of("OWN"), created.getSpec().getContainers().get(1).getEnv().stream().map(EnvVar::getName)
                .toList(), "the logger's own env only");

        Pod again = dryRun(apps, new PodBuilder(created).withNewMetadata().withName("per-container-again")
                .withLabels(created.getMetadata().getLabels()).endMetadata().withStatus(null).build());
        assertEquals(created.getSpec().getVolumes(), again.getSpec().getVolumes(), "a second evaluation's volumes");
        assertEquals(created.getSpec().getInitContainers(), again.getSpec().getInitContainers());
        assertEquals(created.getSpec().getContainers(), again.getSpec().getContainers());
    }

    @Test
    void podsThatDoNotOptInOrNeedNothingStayAsTheyAre() {
        Pod notOptedIn = claimed("not-opted-in");
        assertNotInjected(notOptedIn, create(apps, notOptedIn));
        Container cpuOnly = new ContainerBuilder(app("app")).editResources()
                .withLimits(Map.of("cpu", new Quantity("1"), "hugepages-2Mi", new Quantity("2Mi"), "memory",
                        new Quantity("2Mi"))).endResources().build();
        Pod noDevice = optedIn(pod("no-device", List.of(), List.of(), List.of(cpuOnly)));
        assertNotInjected(noDevice, create(apps, noDevice));
        Pod optedOut = new PodBuilder(optedIn(claimed("opted-out"))).editMetadata()
                .addToAnnotations(Injection.OPT_IN, "false").endMetadata().build();
        assertNotInjected(optedOut, create(apps, optedOut));
        Pod unlisted = optedIn(pod("unlisted", List.of(direct("gpu", "gpu-claim")), List.of(app("setup")),
                List.of(app("app"))));
        assertNotInjected(unlisted, create(apps, unlisted));
    }

    /** The agent refuses hostNetwork pods (peer-not-allowed): the injection gives them nothing to call it with. */
    @Test
    void aHostNetworkPodGetsNothing() {
        String namespace = "node-host-network";
        API.client().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
                .createOr(NonDeletingOperation::update);
        if (API.client().serviceAccounts().inNamespace(namespace).withName("default").get() == null) {
            API.addDefaultServiceAccount(namespace);
        }
        Pod pod = new PodBuilder(optedIn(claimed("host-network"))).editSpec().withHostNetwork(true).endSpec().build();
        assertNotInjected(pod, dryRun(namespace, pod));
    }

    /**
     * The docs: the agent's namespace enforces Privileged because of hostPath volumes, and the agent meets everything
     * else Restricted asks. Its pod is admitted there with no warning; under Restricted it is refused for exactly that
     * reason and no other.
     */
    @Test
    void theAgentNeedsPrivilegedForHostPathOnly() throws Exception {
        DaemonSet agent = NODE_MODE.objects().stream().filter(DaemonSet.class::isInstance).map(DaemonSet.class::cast)
                .findFirst().orElseThrow();
        Pod pod = new PodBuilder().withNewMetadataLike(agent.getSpec().getTemplate().getMetadata())
                .withGenerateName("agent-").endMetadata().withSpec(agent.getSpec().getTemplate().getSpec()).build();
        Pod admitted = create(agent.getMetadata().getNamespace(), pod);
        assertNotNull(admitted.getMetadata().getName());

        String restricted = API.restrictedNamespace("agent-restricted", Map.of());
        API.client().serviceAccounts().inNamespace(restricted).resource(new ServiceAccountBuilder().withNewMetadata()
                .withName(pod.getSpec().getServiceAccountName()).endMetadata().build()).create();
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> API.client().pods().inNamespace(restricted).resource(pod).create());
        API.warnings();
        assertEquals(403, e.getCode(), e.getMessage());
        String reasons = e.getMessage().replaceAll("(?s)^.*?violates PodSecurity \"restricted:latest\": ", "")
                .replaceAll("(?s)\\..*", "");
        assertEquals("restricted volume types (volumes \"cdi\", \"host-0\" use restricted volume type \"hostPath\")",
                reasons, e.getMessage());
    }

    /**
     * Every object applies with no warning, and the ServiceAccount may do what the agent needs and nothing more; the
     * issuer's keys by its own ClusterRole (asked as the bare user, without the service accounts' group that the
     * default binding grants them to).
     */
    @Test
    void theManifestsApplyWithoutWarningsAndGrantOnlyPodsClaimsSlicesTokenReviewsAndTheIssuersKeys() throws Exception {
        for (HasMetadata object : NODE_MODE.objects()) {
            API.client().resource(object).forceConflicts().serverSideApply();
        }
        assertEquals(List.of(), API.warnings());
        String agent = "system:serviceaccount:dra-metadata-node:dra-metadata-sidecar";
        for (String verb : List.of("get", "list", "watch")) {
            assertTrue(Access.allowed(API, agent, verb, "", "pods"), verb + " pods");
        }
        assertTrue(Access.allowed(API, agent, "create", "authentication.k8s.io", "tokenreviews"));
        for (String path : List.of("/.well-known/openid-configuration", "/openid/v1/jwks")) {
            assertTrue(Access.allowedPath(API, agent, "get", path), "get " + path);
        }
        assertTrue(!Access.allowedPath(API, agent, "get", "/metrics"), "get /metrics");
        for (String resource : List.of("resourceclaims", "resourceslices")) {
            for (String verb : List.of("get", "list", "watch")) {
                assertTrue(Access.allowed(API, agent, verb, "resource.k8s.io", resource), verb + " " + resource);
            }
        }
        for (String[] denied : new String[][] {{"create", "", "pods"}, {"delete", "", "pods"}, {"get", "", "secrets"},
                {"get", "", "configmaps"}, {"update", "resource.k8s.io", "resourceclaims"},
                {"update", "resource.k8s.io", "resourceclaims/status"}, {"create", "resource.k8s.io", "resourceslices"},
                {"create", "", "pods/exec"}, {"create", "", "serviceaccounts/token"}, {"patch", "", "nodes"}}) {
            assertTrue(!Access.allowed(API, agent, denied[0], denied[1], denied[2]), String.join(" ", denied));
        }
    }
}
