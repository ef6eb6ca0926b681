package dev.dra.sidecar.kube;

import static dev.dra.sidecar.kube.InjectionPods.app;
import static dev.dra.sidecar.kube.InjectionPods.direct;
import static dev.dra.sidecar.kube.InjectionPods.pod;
import static dev.dra.sidecar.kube.InjectionPods.template;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.Helm;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Helm chart on a real API server, as an admin runs it: {@code helm install} injects an opted-in pod exactly as
 * the Kustomize injection does, {@code helm upgrade} with a changed value changes what new pods get, and {@code helm
 * uninstall} leaves nothing the chart made (nor Helm's release records, nor the resource API's RBAC in the apps'
 * namespace) and stops the injection; the same for node
 * mode ({@code mode=node}) against deploy/kubernetes/node.
 */
class HelmChartInstallIT {

    @RegisterExtension
    static final KubeApiServerExtension API = new KubeApiServerExtension();

    private static final String RELEASE = "dra-metadata-sidecar";
    private static final String INSTANCE = "app.kubernetes.io/instance";

    /** A pod that exercises every part of the patch: direct and template claims, narrowed ones, its own init container. */
    private static Pod optedIn(String name) {
        Pod pod = pod(name, List.of(direct("gpu", "gpu-claim"), template("my-gpu", "gpu-template")),
                List.of(app("setup", "gpu")), List.of(app("trainer", "gpu", "my-gpu/gpu")));
        return new PodBuilder(pod).editMetadata().addToLabels(Injection.OPT_IN, "true").endMetadata().build();
    }

    /**
     * {@link #optedIn} with what node mode tells apart: a container that lists nothing and one that asks for an
     * extended resource only.
     */
    private static Pod nodeModeOptedIn(String name) {
        Container extended = new ContainerBuilder(app("exporter")).editResources()
                .withLimits(Map.of("example.com/gpu", new Quantity("1"))).endResources().build();
        return new PodBuilder(optedIn(name)).editSpec().addToContainers(app("logger"), extended).endSpec().build();
    }

    /**
     * The arguments of the one {@code helm install} line README.md gives for the working-tree chart (the other one
     * installs a released chart from a registry), without its continuation: the next line only sets the image, which
     * README gives as a placeholder for the reader's own.
     */
    private static List<String> readmeInstallCommand() throws Exception {
        String chart = " " + Helm.CHART + " ";
        List<String> lines = Files.readAllLines(Path.of("README.md")).stream()
                .filter(l -> l.startsWith("helm install ") && l.contains(chart)).toList();
        assertEquals(1, lines.size(), "README's helm install commands of the working-tree chart: " + lines);
        String line = lines.get(0).strip();
        if (line.endsWith("\\")) {
            line = line.substring(0, line.length() - 1).strip();
        }
        return List.of(line.substring("helm ".length()).split(" +"));
    }

    private static Pod create(String namespace, Pod pod) {
        Pod created = API.client().pods().inNamespace(namespace).resource(pod).create();
        assertEquals(List.of(), API.warnings(), "the API server's warnings");
        return created;
    }

    private String releaseNamespace;

    /** A test that failed half-way leaves no release behind for the other classes that share the API server. */
    @AfterEach
    void uninstallWhatIsLeft() throws Exception {
        if (releaseNamespace != null) {
            Helm.forCluster(API.kubeconfig()).run("uninstall", RELEASE, "--namespace", releaseNamespace,
                    "--ignore-not-found", "--wait");
        }
    }

    @Test
    void installUpgradeAndUninstallAgainstTheApiServer() throws Exception {
        Injection injection = new Injection(API);
        String apps = API.restrictedNamespace("helm-apps", Map.of());

        injection.apply();
        injection.awaitEnforced();
        Pod byKustomize = create(apps, optedIn("by-kustomize"));
        assertNotNull(Pods.sidecar(byKustomize), "the Kustomize injection injects");
        injection.remove();
        injection.awaitNotEnforced();

        Helm helm = Helm.forCluster(API.kubeconfig());
        List<String> install = readmeInstallCommand();
        assertEquals(List.of("install", RELEASE, Helm.CHART.toString(), "--namespace", RELEASE, "--create-namespace"),
                install, "README's command");
        releaseNamespace = RELEASE;
        helm.succeed(install.toArray(String[]::new));
        injection.awaitEnforced();
        Pod byHelm = create(apps, optedIn("by-helm"));
        assertEquals(byKustomize.getSpec(), byHelm.getSpec(), "the pod the chart's injection makes");
        assertEquals(byKustomize.getMetadata().getLabels(), byHelm.getMetadata().getLabels());
        assertEquals(byKustomize.getMetadata().getAnnotations(), byHelm.getMetadata().getAnnotations());

        helm.succeed("upgrade", RELEASE, Helm.CHART.toString(), "--namespace", releaseNamespace, "--reuse-values",
                "--set", "startTimeoutSeconds=90", "--set", "resources.limits.memory=200Mi",
                "--set", "resourceApi.enabled=true", "--set", "resourceApi.namespaces={" + apps + "}");
        Container upgraded = Eventually.await(Duration.ofSeconds(30),
                () -> Pods.sidecar(API.client().pods().inNamespace(apps).resource(optedIn("probe")).dryRun().create()),
                c -> c.getLifecycle().getPostStart().getExec().getCommand().get(2).equals("90")
                        && new Quantity("200Mi").equals(c.getResources().getLimits().get("memory"))
                        && c.getEnv().stream().anyMatch(e -> e.getName().equals("POD_NAMESPACE")),
                "the upgraded policy and parameters applied");
        API.warnings();
        assertEquals(Pods.sidecar(byHelm).getLivenessProbe(), upgraded.getLivenessProbe(), "the rest as it was");
        assertResourceApiAccess(apps);

        List<HasMetadata> installed = API.load(helm.succeed("get", "manifest", RELEASE, "--namespace", releaseNamespace));
        Set<String> kinds = new TreeSet<>();
        installed.forEach(o -> kinds.add(o.getApiVersion() + "/" + o.getKind()));
        assertEquals(Set.of("admissionregistration.k8s.io/v1/MutatingAdmissionPolicy",
                "admissionregistration.k8s.io/v1/MutatingAdmissionPolicyBinding",
                "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy",
                "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding",
                "rbac.authorization.k8s.io/v1/ClusterRole", "rbac.authorization.k8s.io/v1/ClusterRoleBinding",
                "rbac.authorization.k8s.io/v1/Role", "rbac.authorization.k8s.io/v1/RoleBinding"), kinds,
                "what the chart installs");
        assertEquals(10, installed.size(), "the policy, the extended-resource warning and their two "
                + "bindings each, and the resource API's RBAC for one namespace: " + installed);

        assertUninstalled(helm, installed, kinds);
        injection.awaitNotEnforced();
        Pod after = create(apps, optedIn("after-uninstall"));
        assertTrue(after.getSpec().getInitContainers().stream().noneMatch(c -> c.getName().equals(Pods.SIDECAR)),
                "no injection after uninstall");
    }

    /**
     * {@code mode=node} installs what deploy/kubernetes/node holds, in a release namespace that allows Privileged
     * (the docs' {@code kubectl label}), and an opted-in pod gets from it what the Kustomize node mode gives (a token
     * for each container that lists a claim or an extended resource, nothing for one that lists nothing); the
     * uninstall leaves nothing.
     */
    @Test
    void nodeModeInstallsTheKustomizeNodeModeAndUninstallsClean() throws Exception {
        new Injection(API).remove();
        String apps = API.restrictedNamespace("helm-node-apps", Map.of());
        Kustomization kustomize = Kustomization.nodeMode(API);
        kustomize.apply();
        Pod byKustomize = awaitNodeInjection(apps, "by-kustomize");
        assertEquals(List.of("dra-metadata-token-0", "dra-metadata-token-2", "dra-metadata-token-init-0"),
                tokenVolumes(byKustomize), "a token for each container that lists a claim or an extended resource");
        assertEquals(List.of(), byKustomize.getSpec().getContainers().get(1).getEnv(), "nothing for the logger");
        kustomize.remove();
        Eventually.await(Duration.ofSeconds(30), () -> tokenVolumes(API.client().pods().inNamespace(apps)
                .resource(nodeModeOptedIn("probe")).dryRun().create()), List::isEmpty, "the Kustomize node mode gone");

        releaseNamespace = "helm-node-agent";
        API.client().resource(new NamespaceBuilder().withNewMetadata()
                .withName(releaseNamespace).withLabels(Map.of("pod-security.kubernetes.io/enforce", "privileged"))
                .endMetadata().build()).create();
        API.addDefaultServiceAccount(releaseNamespace);
        Helm helm = Helm.forCluster(API.kubeconfig());
        helm.succeed("install", RELEASE, Helm.CHART.toString(), "--namespace", releaseNamespace, "--set", "mode=node");
        Pod byHelm = awaitNodeInjection(apps, "by-helm");
        assertEquals(byKustomize.getSpec(), byHelm.getSpec(), "the pod the chart's node-mode injection makes");

        List<HasMetadata> installed = API.load(helm.succeed("get", "manifest", RELEASE, "--namespace", releaseNamespace));
        Set<String> kinds = new TreeSet<>();
        installed.forEach(o -> kinds.add(o.getApiVersion() + "/" + o.getKind()));
        assertEquals(Set.of("v1/ServiceAccount", "v1/Service", "rbac.authorization.k8s.io/v1/ClusterRole",
                "rbac.authorization.k8s.io/v1/ClusterRoleBinding", "apps/v1/DaemonSet",
                "admissionregistration.k8s.io/v1/MutatingAdmissionPolicy",
                "admissionregistration.k8s.io/v1/MutatingAdmissionPolicyBinding"), kinds, "what node mode installs");
        assertUninstalled(helm, installed, kinds);
    }

    /**
     * What {@code resourceApi} grants, as the API server authorizes it: any service account of {@code apps} may get,
     * list and watch resourceclaims there and resourceslices, and nothing else (no write, no other namespace's
     * claims); one of another namespace may not.
     */
    private static void assertResourceApiAccess(String apps) {
        for (String verb : List.of("get", "list", "watch")) {
            assertTrue(allowed("any-sa", apps, verb, "resourceclaims", apps), verb + " resourceclaims");
            assertTrue(allowed("any-sa", apps, verb, "resourceslices", null), verb + " resourceslices");
        }
        assertFalse(allowed("any-sa", apps, "update", "resourceclaims", apps), "no write");
        assertFalse(allowed("any-sa", apps, "list", "resourceclaims", "default"), "no other namespace's claims");
        assertFalse(allowed("default", "default", "list", "resourceslices", null), "no other namespace's accounts");
    }

    /** Whether the API server allows the service account {@code namespace/account} {@code verb} on {@code resource}. */
    private static boolean allowed(String account, String namespace, String verb, String resource, String in) {
        SubjectAccessReview review = new SubjectAccessReviewBuilder().withNewSpec()
                .withUser("system:serviceaccount:" + namespace + ":" + account)
                .withGroups("system:serviceaccounts", "system:serviceaccounts:" + namespace, "system:authenticated")
                .withNewResourceAttributes().withGroup("resource.k8s.io").withResource(resource).withVerb(verb)
                .withNamespace(in).endResourceAttributes().endSpec().build();
        return API.client().authorization().v1().subjectAccessReview().create(review).getStatus()
                .getAllowed();
    }

    /** Creates {@link #nodeModeOptedIn} once the node-mode injection gives it the agent's tokens. */
    private static Pod awaitNodeInjection(String apps, String name) {
        Eventually.await(Duration.ofSeconds(30), () -> tokenVolumes(API.client().pods().inNamespace(apps)
                .resource(nodeModeOptedIn("probe")).dryRun().create()), v -> !v.isEmpty(),
                "the node-mode injection enforced");
        API.warnings();
        return create(apps, nodeModeOptedIn(name));
    }

    /** The names of the volumes node mode's injection added. */
    private static List<String> tokenVolumes(Pod pod) {
        return pod.getSpec().getVolumes().stream().map(v -> v.getName()).filter(n -> n.startsWith("dra-metadata-token"))
                .toList();
    }

    private void assertUninstalled(Helm helm, List<HasMetadata> installed, Set<String> kinds) throws Exception {
        helm.succeed("uninstall", RELEASE, "--namespace", releaseNamespace, "--wait");
        for (HasMetadata object : installed) {
            assertNull(API.client().resource(object).get(), object.getKind() + " " + object.getMetadata().getName());
        }
        for (String kind : kinds) {
            int slash = kind.lastIndexOf('/');
            assertEquals(List.of(), API.client().genericKubernetesResources(kind.substring(0, slash), kind.substring(slash + 1))
                    .inAnyNamespace().withLabel(INSTANCE, RELEASE).list().getItems(), kind + " of the release left");
        }
        assertEquals(List.of(), API.client().secrets().inNamespace(releaseNamespace).withLabel("owner", "helm").list()
                .getItems(), "Helm's release records");
    }
}
