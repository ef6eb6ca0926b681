package dev.dra.sidecar.kube;

import dev.dra.sidecar.testsupport.RunWide;
import dev.dra.sidecar.testsupport.Unavailable;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives a test class the real API server of {@link KubeApiServer}, one for the whole test run (started by the
 * first class that needs it, stopped when the run ends), and a client that records the API server's warnings.
 * Without a Go toolchain every test of the class is skipped and says why.
 */
final class KubeApiServerExtension implements BeforeAllCallback {

    /** The Pod Security labels of a namespace that enforces, warns about and audits the Restricted standard. */
    static final Map<String, String> RESTRICTED = Map.of(
            "pod-security.kubernetes.io/enforce", "restricted",
            "pod-security.kubernetes.io/warn", "restricted",
            "pod-security.kubernetes.io/audit", "restricted");

    private static final AtomicInteger NAMESPACES = new AtomicInteger();

    private Shared shared;

    /** The server, its client and its warnings, or why there is none. */
    private record Shared(KubeApiServer server, KubernetesClient client, ApiWarnings warnings, String unavailable)
            implements AutoCloseable {

        static Shared start() {
            try {
                KubeApiServer server = KubeApiServer.start();
                ApiWarnings warnings = new ApiWarnings();
                KubernetesClient client = new KubernetesClientBuilder()
                        .withConfig(Config.fromKubeconfig(server.kubeconfig))
                        .withHttpClientBuilderConsumer(builder -> builder.addOrReplaceInterceptor("warnings", warnings))
                        .build();
                return new Shared(server, client, warnings, null);
            } catch (Unavailable e) {
                return new Shared(null, null, null, e.getMessage());
            }
        }

        /** Closes the client, then stops the server; a server that could not start has neither. */
        @Override
        public void close() {
            try (KubeApiServer stopped = server; KubernetesClient closed = client) {
                // try-with-resources closes them in reverse order and passes over a null one
            }
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        shared = RunWide.get(context, KubeApiServerExtension.class, Shared.class, Shared::start, Shared::unavailable);
    }

    KubernetesClient client() {
        return shared.client();
    }

    /** A kubeconfig for the API server as cluster admin (for tools that talk to it, such as helm). */
    String kubeconfig() {
        return shared.server().kubeconfig;
    }

    /** The warnings the API server sent since the last call. */
    List<String> warnings() {
        return shared.warnings().drain();
    }

    /** A new namespace named {@code <prefix>-<n>} that enforces Restricted, with {@code labels} added. */
    String restrictedNamespace(String prefix, Map<String, String> labels) {
        Map<String, String> all = new LinkedHashMap<>(RESTRICTED);
        all.putAll(labels);
        String name = prefix + "-" + NAMESPACES.incrementAndGet();
        Namespace namespace = new NamespaceBuilder().withNewMetadata().withName(name).withLabels(all).endMetadata()
                .build();
        client().resource(namespace).create();
        addDefaultServiceAccount(name);
        return name;
    }

    /**
     * The namespace's {@code default} ServiceAccount, which a cluster's controller manager creates and the
     * ServiceAccount admission plugin requires for every pod (there is no controller manager here).
     */
    void addDefaultServiceAccount(String namespace) {
        client().serviceAccounts().inNamespace(namespace).resource(new ServiceAccountBuilder().withNewMetadata()
                .withName("default").endMetadata().build()).create();
    }

    /** The objects of a YAML text, as the client types them (unknown kinds as generic resources). */
    List<HasMetadata> load(String yaml) {
        return client().load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items();
    }
}
