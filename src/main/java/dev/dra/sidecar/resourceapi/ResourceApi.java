package dev.dra.sidecar.resourceapi;

import dev.dra.sidecar.identity.NodeConfig;
import dev.dra.sidecar.identity.NodePods;
import dev.dra.sidecar.kube.KubeApi;
import dev.dra.sidecar.store.MetadataStore;
import dev.dra.sidecar.store.config.ExpectedClaim;
import dev.dra.sidecar.store.config.StoreConfig;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Starts the resource-API source where it runs: always in node mode (the claims of the node's pods), in sidecar mode
 * when {@link ResourceApiConfig#enabled()} (the expected claims). Made at start, so that a setting the source cannot
 * work with (no namespace, no node, no API server) stops the start and says which.
 */
@Startup
@ApplicationScoped
public class ResourceApi {

    private static final Logger LOG = Logger.getLogger(ResourceApi.class);

    /**
     * How long a refresh the store asks for (a pod's first request whose claims are not all served yet) waits for the
     * source to list what the pod's claims need.
     */
    static final Duration REFRESH_BOUND = Duration.ofSeconds(2);

    private final ResourceApiSource source;

    ResourceApi(StoreConfig store, ResourceApiConfig config, NodeConfig node, Instance<KubeApi> api,
            Instance<NodePods> pods, MetadataStore metadata) {
        if (store.mode() == StoreConfig.Mode.NODE) {
            NodePods nodePods = pods.get();
            source = new ResourceApiSource(api.get(), node.nodeName(), () -> WantedClaims.ofNode(nodePods),
                    metadata::derived);
            nodePods.onChange(source::wantedChanged);
        } else if (config.enabled()) {
            String namespace = required(config.podNamespace(), "the pod's namespace: set POD_NAMESPACE (downward API "
                    + "metadata.namespace) or dra.metadata.resource-api.namespace");
            String nodeName = required(node.nodeName(), "the pod's node: set NODE_NAME (downward API spec.nodeName) "
                    + "or dra.metadata.node.name");
            List<WantedClaim> wanted = WantedClaims.ofSidecar(
                    ExpectedClaim.parseAll(store.expectedClaims().orElse(List.of())), namespace, config.ownPodUid());
            LOG.infof("Serving metadata derived from the resource API where a driver wrote no file, for %s",
                    wanted.isEmpty() ? "no claim (dra.metadata.expected-claims is empty)" : wanted.size()
                            + " expected claim(s) in namespace " + namespace);
            source = new ResourceApiSource(api.get(), nodeName, () -> wanted, metadata::derived);
        } else {
            source = null;
        }
        if (source != null) {
            metadata.deriveWith(() -> source.refreshNow(REFRESH_BOUND));
        }
    }

    /** The source, where it runs. */
    public Optional<ResourceApiSource> source() {
        return Optional.ofNullable(source);
    }

    @PreDestroy
    void close() {
        if (source != null) {
            source.close();
        }
    }

    private static String required(String value, String what) {
        if (value.isEmpty()) {
            throw new IllegalStateException("the resource-API source (dra.metadata.resource-api.enabled) needs " + what);
        }
        return value;
    }
}
