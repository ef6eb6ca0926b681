package dev.dra.sidecar.node;

import dev.dra.sidecar.testsupport.RunWide;
import dev.dra.sidecar.testsupport.Unavailable;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Gives a test class the one real node of {@link KubeNode} (only one can run per machine: started by the first
 * class that needs it, stopped when the test run ends, which fails the run if the node left anything behind), a
 * client for its API server, the sidecar image imported into its containerd, the class's app pods there
 * ({@link #pods()}) and a Go reader of its own ({@link #goReader()}, stopped after the class). Without root, Go or
 * podman every test of the class is skipped and says why. The node's logs at a failed test are kept in
 * {@code target/kube-node-failed/<class>.<method>/}: a later class may start the node again, which starts its logs
 * afresh.
 */
final class KubeNodeExtension implements BeforeAllCallback, AfterAllCallback, TestWatcher {

    private static final Path FAILED_LOGS = Path.of("target/kube-node-failed");

    private static final AtomicInteger NAMESPACES = new AtomicInteger();
    private static final Map<String, String> RESTRICTED = Map.of(
            "pod-security.kubernetes.io/enforce", "restricted",
            "pod-security.kubernetes.io/warn", "restricted");

    private Holder holder;
    private final AppPods pods = new AppPods(this);
    private final GoReader goReader = new GoReader();

    /** The node, its client and the images, or why there is none. */
    private record Shared(KubeNode node, KubernetesClient client, String sidecarImage, String unavailable)
            implements AutoCloseable {

        static Shared start() {
            String noImage = NodeImages.whyNoImage();
            if (noImage != null) {
                return new Shared(null, null, null, "the real-node tests need the sidecar image: " + noImage);
            }
            KubeNode node;
            try {
                node = KubeNode.start();
            } catch (Unavailable e) {
                return new Shared(null, null, null, e.getMessage());
            }
            try {
                String image = NodeImages.importSidecar(node);
                KubernetesClient client = new KubernetesClientBuilder()
                        .withConfig(Config.fromKubeconfig(node.kubeconfig)).build();
                return new Shared(node, client, image, null);
            } catch (Exception e) {
                node.close();
                throw new IllegalStateException("the sidecar image did not reach the node: " + e.getMessage(), e);
            }
        }

        /** Closes the client, then stops the node (which fails if it left anything); an unavailable one has neither. */
        @Override
        public void close() {
            try (KubeNode stopped = node; KubernetesClient closed = client) {
                // try-with-resources closes them in reverse order and passes over a null one
            }
        }
    }

    /** The run's node as it is now: {@link #killAndRestart()} replaces it. */
    private static final class Holder implements AutoCloseable {
        private volatile Shared current;

        Holder(Shared current) {
            this.current = current;
        }

        @Override
        public void close() {
            current.close();
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        holder = RunWide.get(context, KubeNodeExtension.class, Holder.class, () -> new Holder(Shared.start()),
                h -> h.current.unavailable());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        goReader.close();
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        Path to = FAILED_LOGS.resolve(context.getRequiredTestClass().getSimpleName() + "."
                + context.getRequiredTestMethod().getName());
        try (Stream<Path> logs = Files.list(KubeNode.STATE)) {
            Files.createDirectories(to);
            for (Path log : (Iterable<Path>) logs.filter(p -> p.toString().endsWith(".log"))::iterator) {
                Files.copy(log, to.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
            System.err.println("[node] the node's logs at the failure are kept in " + to);
        } catch (IOException e) {
            System.err.println("[node] the node's logs at the failure could not be kept: " + e);
        }
    }

    /** A client of the node's API server, as cluster admin. */
    KubernetesClient client() {
        return holder.current.client();
    }

    /** The node itself: its facts ({@link KubeNode#env}) and its components. */
    KubeNode node() {
        return holder.current.node();
    }

    /** The class's app pods on the node: made from the shipped manifests, waited for, looked into. */
    AppPods pods() {
        return pods;
    }

    /** The class's Go reader: its oracle starts at the first question and stops after the class's tests. */
    GoReader goReader() {
        return goReader;
    }

    /** The sidecar image's name in the node's containerd. */
    String sidecarImage() {
        return holder.current.sidecarImage();
    }

    /** The app image (busybox, curl, python3) in the node's containerd. */
    String appImage() {
        return holder.current.node().env.get("app_image");
    }

    /**
     * Kills the node's start.sh outright (SIGKILL: its trap does not run, so whatever the kernel does not end is
     * left) and starts the run's node again, which must first remove and check what the killed one left; the
     * classes that follow get the new node. Returns what the new start.sh wrote.
     */
    String killAndRestart() {
        Shared killed = holder.current;
        killed.client().close();
        killed.node().killScript();
        holder.current = Shared.start();
        return holder.current.node().output();
    }

    /**
     * A new namespace {@code <prefix>-<n>} that enforces Restricted, with {@code labels} added, once its
     * {@code default} ServiceAccount (made by the controller manager) is there.
     */
    String restrictedNamespace(String prefix, Map<String, String> labels) {
        Map<String, String> all = new LinkedHashMap<>(RESTRICTED);
        all.putAll(labels);
        String name = prefix + "-" + NAMESPACES.incrementAndGet();
        client().resource(new NamespaceBuilder().withNewMetadata().withName(name).withLabels(all).endMetadata().build())
                .create();
        client().serviceAccounts().inNamespace(name).withName("default")
                .waitUntilCondition(sa -> sa != null, Duration.ofSeconds(30).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        return name;
    }

    /** The objects of a YAML text, as the client types them. */
    List<HasMetadata> load(String yaml) {
        return client().load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items();
    }

    /** Creates every object of {@code yaml} in {@code namespace}, in their order; fails if one is there already. */
    void create(String namespace, String yaml) {
        load(yaml).forEach(object -> client().resource(object).inNamespace(namespace).create());
    }

    /** Creates every object of {@code yaml} (cluster-scoped ones), or updates it where it is there already. */
    void apply(String yaml) {
        load(yaml).forEach(object -> client().resource(object).createOr(NonDeletingOperation::update));
    }

    /** Deletes every object of {@code yaml} (cluster-scoped ones) that is there. */
    void delete(String yaml) {
        load(yaml).forEach(object -> client().resource(object).delete());
    }
}
