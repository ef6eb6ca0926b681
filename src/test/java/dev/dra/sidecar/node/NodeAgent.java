package dev.dra.sidecar.node;

import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.Kustomize;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Node mode as deploy/kubernetes/node ships it, on the real node: the agent's DaemonSet with the image imported into
 * the node (pulled never), its RBAC and the node-mode injection. The sidecar injection another class may have left
 * is removed first (both modes' policies carry the same names), and {@link #remove()} takes the injection away
 * again so that the next class starts from nothing.
 */
final class NodeAgent {

    static final Path DIR = Path.of("deploy/kubernetes/node");
    static final String TOKEN = "/var/run/secrets/dra-metadata/token";
    /** The name node mode's injection gives the token volume of a pod's first container (spec.containers[0]). */
    static final String FIRST_TOKEN_VOLUME = "dra-metadata-token-0";
    private static final Duration READY = Duration.ofSeconds(120);

    private final KubeNodeExtension node;
    final String namespace;

    private NodeAgent(KubeNodeExtension node, String namespace) {
        this.node = node;
        this.namespace = namespace;
    }

    /** Applies node mode (creating or updating each object) and waits until the agent's pod is ready. */
    static NodeAgent deploy(KubeNodeExtension node) throws Exception {
        for (HasMetadata object : reversed(node.load(Kustomize.render(AppPods.INJECTION)))) {
            if (!(object instanceof Namespace)) {
                node.client().resource(object).delete();
            }
        }
        String namespace = null;
        for (HasMetadata object : node.load(Kustomize.render(DIR))) {
            if (object instanceof DaemonSet daemonSet) {
                namespace = daemonSet.getMetadata().getNamespace();
                for (Container container : daemonSet.getSpec().getTemplate().getSpec().getContainers()) {
                    container.setImage(node.sidecarImage());
                    container.setImagePullPolicy("Never");
                }
            }
            node.client().resource(object).createOr(NonDeletingOperation::update);
        }
        NodeAgent agent = new NodeAgent(node, namespace);
        agent.awaitReady(null);
        agent.awaitInjecting();
        return agent;
    }

    /**
     * Waits until admission injects node mode into an opted-in pod (a dry run): a policy just created or replaced is
     * enforced only once the API server's admission has seen it, and pods made before that would get nothing.
     */
    private void awaitInjecting() {
        Pod probe = app(node, namespace, "injection-probe", "{claims: [{name: gpu}]}",
                "resourceClaims: [{name: gpu, resourceClaimName: gpu-claim}]", "true");
        node.pods().awaitAdmitted(probe, READY, pod -> pod.getSpec().getContainers().get(0).getEnv().stream()
                .anyMatch(env -> env.getName().equals("DRA_METADATA_URL")), "the node-mode injection enforced");
    }

    /**
     * Deletes the node-mode injection and the agent (not its namespace): pods made later get nothing. The agent's log
     * is kept first in target/kube-node (the node's own logs go with the node).
     */
    void remove() throws Exception {
        for (Pod pod : node.client().pods().inNamespace(namespace).list().getItems()) {
            Path log = Path.of("target/kube-node", "agent-" + pod.getMetadata().getName() + ".log");
            try {
                Files.writeString(log, node.client().pods().inNamespace(namespace)
                        .withName(pod.getMetadata().getName()).inContainer("agent").getLog());
            } catch (RuntimeException e) {
                System.err.println("[node] the agent's log could not be kept: " + e.getMessage());
            }
        }
        for (HasMetadata object : reversed(node.load(Kustomize.render(DIR)))) {
            if (!(object instanceof Namespace)) {
                // Cluster-scoped objects (the policies, the RBAC) have no namespace to name.
                node.client().resource(object).delete();
            }
        }
        // The DaemonSet's pod outlives it until the garbage collector deletes it, still ready for a while: the next
        // class's deploy would take it for its own agent and then lose it.
        Eventually.await(READY, () -> node.client().pods().inNamespace(namespace).list().getItems(), List::isEmpty,
                "the agent's pod gone");
    }

    private static List<HasMetadata> reversed(List<HasMetadata> objects) {
        List<HasMetadata> copy = new ArrayList<>(objects);
        Collections.reverse(copy);
        return copy;
    }

    /** The agent's pod once it is ready, and is not {@code not} (the name of a pod that was deleted). */
    Pod awaitReady(String not) {
        return Eventually.await(READY, () -> node.client().pods().inNamespace(namespace).list().getItems(),
                pods -> pods.size() == 1 && !pods.get(0).getMetadata().getName().equals(not) && AppPods.ready(pods.get(0))
                        && pods.get(0).getMetadata().getDeletionTimestamp() == null,
                "the agent's pod ready").get(0);
    }

    /** The URL the injection gives a pod of {@code owner}'s node: the node's address, the Service's node port. */
    static String url(Pod owner) {
        return "http://" + owner.getStatus().getHostIP() + ":30089";
    }

    /** The agent's pod as the API server lists it now (the DaemonSet's one pod on the node). */
    Pod pod() {
        return node.client().pods().inNamespace(namespace).list().getItems().get(0);
    }

    /** Deletes the agent's pod; the DaemonSet makes a new one. Returns it once ready. */
    Pod restart() {
        Pod old = pod();
        node.client().resource(old).withGracePeriod(1).delete();
        return awaitReady(old.getMetadata().getName());
    }

    /** The agent container's memory cgroup directory on the host (cgroup v1). */
    Path memoryCgroup() throws Exception {
        String id = AppPods.status(pod(), "agent").getContainerID().replaceFirst("^containerd://", "");
        String memory = Files.readAllLines(Path.of("/proc", Long.toString(node.pods().hostPid(id)), "cgroup")).stream()
                .filter(line -> line.split(":")[1].equals("memory")).findFirst().orElseThrow().split(":", 3)[2];
        return Path.of("/sys/fs/cgroup/memory" + memory);
    }

    /**
     * A container of {@link #pod}: named {@code name}, the app image, running {@code script} with sh and then sleeping;
     * {@code resources} is its resources (YAML flow). The injection gives it its token ({@link #TOKEN}, audience
     * {@link #audience}) and the agent's URL only if {@code resources} lists a claim or an extended resource: with
     * {@code {}} it gets nothing.
     */
    record AppContainer(String name, String resources, String script) {}

    /**
     * An app pod (Restricted, opted in) named {@code name} of {@code containers}; {@code claims} is YAML spliced into
     * the pod's spec.
     */
    static Pod pod(KubeNodeExtension node, String namespace, String name, String claims,
            List<AppContainer> containers) {
        StringBuilder yaml = new StringBuilder("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: %s
                  labels: {%s: "true"}
                spec:
                  terminationGracePeriodSeconds: 1
                  automountServiceAccountToken: false
                  securityContext:
                    runAsNonRoot: true
                    runAsUser: 1001
                    seccompProfile: {type: RuntimeDefault}
                %s
                  containers:
                """.formatted(name, namespace, AppPods.OPT_IN, claims.indent(2).stripTrailing()));
        for (AppContainer container : containers) {
            yaml.append("""
                        - name: %s
                          image: %s
                          imagePullPolicy: Never
                          command: ["sh", "-c", %s]
                          resources: %s
                          securityContext:
                            allowPrivilegeEscalation: false
                            capabilities: {drop: [ALL]}
                    """.formatted(container.name(), node.appImage(), json(container.script() + "\nexec sleep 3600"),
                    container.resources()));
        }
        return (Pod) node.load(yaml.toString()).get(0);
    }

    /** {@link #pod} of one container, {@code app}, that runs {@code script}; {@code resources} are its resources. */
    static Pod app(KubeNodeExtension node, String namespace, String name, String resources, String claims,
            String script) {
        return pod(node, namespace, name, claims, List.of(new AppContainer("app", resources, script)));
    }

    /** The audience of the token node mode's injection gives {@code container}. */
    static String audience(String container) {
        return "dra-metadata-sidecar/" + container;
    }

    /** A shell line that asks the agent for {@code route} with the pod's token: the body, then a line break. */
    static String ask(String route) {
        return "curl -s -H \"Authorization: Bearer $(cat " + TOKEN + ")\" \"$DRA_METADATA_URL" + route + "\"; echo";
    }

    private static String json(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }
}
