package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.Helm;
import dev.dra.sidecar.testsupport.InjectionParameters;
import dev.dra.sidecar.testsupport.Kustomize;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ResourceClaim;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.ContainerResource;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The tests' app pods on the real node: made from the shipped manifests with the images imported into the node,
 * waited for, and what the node shows of them: their containers' status, logs and exec, their host PIDs, and the
 * files the driver wrote for their claims.
 */
final class AppPods {

    static final String SIDECAR = "dra-metadata-sidecar";
    /** The chart's release name and namespace on the node, as README installs it. */
    static final String RELEASE = "dra-metadata-sidecar";
    static final String APP = "app";
    static final Duration POD_START = Duration.ofSeconds(90);
    static final Path BASE = Path.of("deploy/kubernetes/base");
    static final Path INJECTION = Path.of("deploy/kubernetes/injection");
    /**
     * The label by which a namespace or pod opts in to the injection: sidecar mode's (deploy/kubernetes/injection)
     * and node mode's (deploy/kubernetes/node) alike.
     */
    static final String OPT_IN = "dra-metadata-sidecar.dra.dev/inject";

    private final KubeNodeExtension node;

    AppPods(KubeNodeExtension node) {
        this.node = node;
    }

    /** The labels of a namespace all of whose pods opt in to the injection ({@link #OPT_IN}). */
    static Map<String, String> optIn() {
        return Map.of(OPT_IN, "true");
    }

    /** Whether {@code pod}'s status has the condition Ready true; false while it has no status. */
    static boolean ready(Pod pod) {
        return pod.getStatus() != null && pod.getStatus().getConditions().stream()
                .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
    }

    /**
     * Creates {@code objects} in {@code namespace} as shipped, but for what the node needs: the sidecar and app
     * containers get the images imported into the node, pulled never (there is no registry). Namespace objects
     * are left out (the test made its own).
     */
    void create(String namespace, List<HasMetadata> objects) {
        for (HasMetadata object : objects) {
            if (object instanceof Namespace) {
                continue;
            }
            object.getMetadata().setNamespace(namespace);
            if (object instanceof Deployment deployment) {
                useNodeImages(deployment.getSpec().getTemplate().getSpec());
            } else if (object instanceof Pod pod) {
                useNodeImages(pod.getSpec());
            }
            node.client().resource(object).inNamespace(namespace).create();
        }
    }

    /**
     * deploy/kubernetes/base's claim and template created in {@code namespace}, and the pod its Deployment's
     * template makes (not created; images as {@link #create} sets them), named {@code name}.
     */
    Pod basePod(String namespace, String name) throws Exception {
        List<HasMetadata> objects = node.load(Kustomize.render(BASE));
        create(namespace, objects.stream().filter(o -> !(o instanceof Deployment)).toList());
        Deployment deployment = objects.stream().filter(Deployment.class::isInstance).map(Deployment.class::cast)
                .findFirst().orElseThrow();
        Pod pod = new PodBuilder().withNewMetadataLike(deployment.getSpec().getTemplate().getMetadata())
                .withName(name).withNamespace(namespace).endMetadata()
                .withSpec(deployment.getSpec().getTemplate().getSpec()).build();
        useNodeImages(pod.getSpec());
        return pod;
    }

    /**
     * An app pod that deploy/kubernetes/injection gives the sidecar once its namespace opts in, not created:
     * {@code name} in {@code namespace}, no service account token, Restricted at the pod (non-root, user and group
     * 1001, RuntimeDefault seccomp), and one container {@value #APP} that runs {@code command} with the app image
     * imported into the node (pulled never), lists each of {@code claims} whole, and neither escalates privileges
     * nor keeps a capability.
     */
    Pod app(String namespace, String name, List<String> command, PodResourceClaim... claims) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .withNewSpec()
                .withAutomountServiceAccountToken(false)
                .withNewSecurityContext().withRunAsNonRoot(true).withRunAsUser(1001L).withRunAsGroup(1001L)
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile().endSecurityContext()
                .withResourceClaims(claims)
                .addNewContainer().withName(APP).withImage(node.appImage()).withImagePullPolicy("Never")
                .withCommand(command)
                .withNewResources().withClaims(Arrays.stream(claims).map(c -> new ResourceClaim(c.getName(), null))
                        .toList()).endResources()
                .withNewSecurityContext().withAllowPrivilegeEscalation(false).withNewCapabilities().withDrop("ALL")
                .endCapabilities().endSecurityContext()
                .endContainer()
                .endSpec().build();
    }

    /** The pod claim {@code name} of the pod's namespace's ResourceClaim {@code claim}. */
    static PodResourceClaim claim(String name, String claim) {
        return new PodResourceClaimBuilder().withName(name).withResourceClaimName(claim).build();
    }

    /** The pod claim {@code name} of a ResourceClaim made for the pod from the ResourceClaimTemplate {@code template}. */
    static PodResourceClaim fromTemplate(String name, String template) {
        return new PodResourceClaimBuilder().withName(name).withResourceClaimTemplateName(template).build();
    }

    /**
     * Makes room for the chart: deletes the shipped injection's objects, which have the chart's names (Helm installs
     * only objects it owns).
     */
    void removeInjection() throws Exception {
        for (HasMetadata object : node.load(Kustomize.render(INJECTION))) {
            node.client().resource(object).delete();
        }
    }

    /**
     * Uninstalls the chart's release {@link #RELEASE} when there is one, waiting until its objects are gone, and
     * applies the shipped injection again, as the node tests after expect it.
     */
    void uninstallChartAndApplyInjection() throws Exception {
        Helm.forCluster(node.node().kubeconfig).succeed("uninstall", RELEASE, "--namespace", RELEASE,
                "--ignore-not-found", "--wait");
        applyInjection();
    }

    /**
     * deploy/kubernetes/injection applied as shipped, its parameters naming the sidecar image imported into the node,
     * or again (an update); returns once admission injects as it says, not as a policy of the same name before it
     * (the chart's) did.
     */
    void applyInjection() throws Exception {
        for (HasMetadata object : node.load(Kustomize.render(INJECTION))) {
            HasMetadata applied = object.getKind().equals("MutatingAdmissionPolicy")
                    ? InjectionParameters.edited(object, p -> p.put("image", node.sidecarImage())) : object;
            node.client().resource(applied).createOr(NonDeletingOperation::update);
        }
        awaitInjecting(node.sidecarImage());
    }

    /**
     * Waits until admission gives an opted-in pod with a claim (a dry run in namespace {@code default}) the sidecar
     * shipped parameters naming {@code image} make ({@link InjectionParameters#shipped}): a policy just created or
     * replaced is enforced only once admission has seen it.
     */
    void awaitInjecting(String image) {
        Pod probe = new PodBuilder(app("default", "injection-probe", List.of("true"), claim("gpu", "gpu-claim")))
                .editMetadata().addToLabels(OPT_IN, "true").endMetadata().build();
        awaitAdmitted(probe, POD_START, admitted -> InjectionParameters.shipped(admitted.getSpec().getInitContainers()
                .stream().filter(c -> SIDECAR.equals(c.getName())).findFirst().orElse(null), image),
                "the injection of " + image + " as shipped enforced");
    }

    /**
     * {@code pod} as the API server's admission would create it now (a dry run), once {@code enforced} holds for it:
     * a policy just created or replaced is enforced only once admission has seen it; a refused dry run is not yet.
     */
    Pod awaitAdmitted(Pod pod, Duration within, Predicate<Pod> enforced, String what) {
        return Eventually.await(within, () -> {
            try {
                return node.client().resource(pod).dryRun().create();
            } catch (KubernetesClientException e) {
                return null;
            }
        }, probe -> probe != null && enforced.test(probe), what);
    }

    /** Creates {@code pod} (its namespace set) once the injection just applied or installed gives it its sidecar. */
    Pod createInjected(Pod pod) {
        awaitAdmitted(pod, POD_START, probe -> probe.getSpec().getInitContainers().stream()
                .anyMatch(c -> SIDECAR.equals(c.getName())), "the injection enforced");
        return node.client().resource(pod).create();
    }

    /** The init container or container {@code name} of {@code pod}'s spec; fails when there is none. */
    static Container container(Pod pod, String name) {
        return Stream.concat(pod.getSpec().getInitContainers().stream(), pod.getSpec().getContainers().stream())
                .filter(c -> c.getName().equals(name)).findFirst().orElseThrow();
    }

    /** Gives the containers of {@code spec} the images imported into the node, the sidecar's or the app's, pulled never. */
    private void useNodeImages(PodSpec spec) {
        for (Container container : Stream.concat(spec.getInitContainers().stream(), spec.getContainers().stream()).toList()) {
            container.setImage(SIDECAR.equals(container.getName()) ? node.sidecarImage() : node.appImage());
            container.setImagePullPolicy("Never");
        }
    }

    /** {@code pod} once its app container runs. */
    Pod awaitAppRunning(Pod pod) {
        return Eventually.await(POD_START, () -> get(pod), p -> running(p, APP), "the app container of "
                + pod.getMetadata().getName() + " running");
    }

    /** The one pod of {@code namespace} once its app container runs. */
    Pod awaitAppRunning(String namespace) {
        return Eventually.await(POD_START, () -> node.client().pods().inNamespace(namespace).list().getItems(),
                pods -> pods.size() == 1 && running(pods.get(0), APP), "the app container of one pod running in "
                        + namespace).get(0);
    }

    /** {@code pod} as the API server has it now (by namespace and name), or null once it is gone. */
    Pod get(Pod pod) {
        return node.client().pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).get();
    }

    /** Whether kubelet reports {@code container} of {@code pod} running; false while it reports nothing of it. */
    static boolean running(Pod pod, String container) {
        ContainerStatus status = status(pod, container);
        return status != null && status.getState() != null && status.getState().getRunning() != null;
    }

    /** {@code container}'s status in {@code pod}'s, init containers' included; null while kubelet reports none. */
    static ContainerStatus status(Pod pod, String container) {
        if (pod == null || pod.getStatus() == null) {
            return null;
        }
        return Stream.concat(pod.getStatus().getInitContainerStatuses().stream(),
                pod.getStatus().getContainerStatuses().stream()).filter(s -> s.getName().equals(container)).findFirst()
                .orElse(null);
    }

    /** The container's log lines that are not blank (API server → kubelet → containerd), each with its CRI timestamp. */
    List<TimedLine> log(Pod pod, String container) {
        return TimedLine.parse(logs(pod, container).usingTimestamps().getLog());
    }

    /**
     * Follows the container's log from its first line until the container ends: its lines outlive the container,
     * which kubelet's container garbage collection removes, log and all, within a minute of a deleted pod's end.
     * Start it while the container runs.
     */
    FollowedLog follow(Pod pod, String container) {
        return new FollowedLog(container, logs(pod, container).usingTimestamps());
    }

    private ContainerResource logs(Pod pod, String container) {
        return node.client().pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                .inContainer(container);
    }

    /** The container's first {@code count} log lines that are not blank, once it has written them. */
    List<TimedLine> awaitLog(Pod pod, String container, int count) {
        return Eventually.await(POD_START, () -> log(pod, container), lines -> lines.size() >= count,
                count + " lines of " + container).subList(0, count);
    }

    /** {@code kubectl exec} in the container (API server → kubelet's streaming → containerd); its stdout. */
    String exec(Pod pod, String container, String... command) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("kubectl", "--kubeconfig", KubeNode.STATE.resolve("kubeconfig").toString(),
                "exec", "-n", pod.getMetadata().getNamespace(), pod.getMetadata().getName(), "-c", container, "--"));
        args.addAll(List.of(command));
        Process process = new ProcessBuilder(args).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor(60, TimeUnit.SECONDS);
        assertEquals(0, process.exitValue(), "kubectl exec " + String.join(" ", command) + ": " + out);
        return out;
    }

    /** The generated ResourceClaim's name for the pod claim {@code podClaim} (from a template). */
    static String generatedClaim(Pod pod, String podClaim) {
        return pod.getStatus().getResourceClaimStatuses().stream().filter(s -> s.getName().equals(podClaim))
                .findFirst().orElseThrow().getResourceClaimName();
    }

    /** The metadata file the driver wrote on the host for {@code claim}'s {@code request}. */
    Path hostFile(String namespace, String claim, String request) {
        return Path.of(node.node().env.get("plugin_dir"), "dra-device-metadata", namespace + "_" + claim, request,
                "metadata.json");
    }

    /** The host PID of the container {@code containerId}'s process (from containerd's task list). */
    long hostPid(String containerId) throws IOException, InterruptedException {
        for (String line : NodeImages.ctr(node.node(), "tasks", "ls").split("\n")) {
            String[] columns = line.trim().split("\\s+");
            if (columns.length >= 2 && columns[0].equals(containerId)) {
                return Long.parseLong(columns[1]);
            }
        }
        throw new IllegalStateException("no task for container " + containerId);
    }

    /** containerd's creation time of the container of {@code status} (nanoseconds, unlike the pod status). */
    Instant createdInContainerd(ContainerStatus status) throws IOException, InterruptedException {
        String id = status.getContainerID().replaceFirst("^containerd://", "");
        String info = NodeImages.ctr(node.node(), "containers", "info", id);
        String created = new com.fasterxml.jackson.databind.ObjectMapper().readTree(info).get("CreatedAt").asText();
        return Instant.parse(created);
    }
}
