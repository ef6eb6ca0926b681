package dev.dra.sidecar.kube;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How the service reaches the API server, under {@code dra.metadata.kube} (env {@code DRA_METADATA_KUBE_*}): in node
 * mode, and in sidecar mode with the resource-API source on. In a pod, the defaults are the pod's own.
 */
@ConfigMapping(prefix = "dra.metadata.kube")
public interface KubeConfig {

    /**
     * The API server; without it, the in-cluster one:
     * {@code https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT}.
     */
    Optional<URI> apiServer();

    /** The service account token to call it with, read again for every call (it rotates). */
    @WithDefault("/var/run/secrets/kubernetes.io/serviceaccount/token")
    Path tokenFile();

    /** The CA that signed the API server's certificate. */
    @WithDefault("/var/run/secrets/kubernetes.io/serviceaccount/ca.crt")
    Path caFile();

    /**
     * The client these settings make.
     *
     * @param needs what needs the API server, for the message when none is set or found
     * @param requests counts the client's calls
     * @throws IllegalStateException when no API server is set nor found, or the CA cannot be used
     */
    default KubeApi client(String needs, ApiRequests requests) {
        URI server = apiServer().or(KubeApi::inCluster).orElseThrow(() -> new IllegalStateException(needs
                + " needs the API server: set dra.metadata.kube.api-server, or run in a pod "
                + "(KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT)"));
        return new KubeApi(server, tokenFile(), caFile(), requests);
    }
}
