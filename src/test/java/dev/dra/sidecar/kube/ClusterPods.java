package dev.dra.sidecar.kube;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * Pods as a node's kubelet and the DRA controllers would make them, on an API server without either: created bound
 * to a node ({@code spec.nodeName} set, no scheduler), given the status the kubelet and the controllers report
 * (address, generated claim names, the extended-resource claim), and their projected tokens minted with the
 * TokenRequest API as the kubelet mints them. Every pod runs as the ServiceAccount {@value #ACCOUNT} of its namespace.
 */
final class ClusterPods {

    /** The audience node mode takes by default. */
    static final String AUDIENCE = "dra-metadata-sidecar";
    static final String ACCOUNT = "app";
    /** The address the in-process tests' requests come from: a pod started with it is the one calling. */
    static final String LOOPBACK = "127.0.0.1";
    private static final AtomicInteger NAMESPACES = new AtomicInteger();

    private final KubernetesClient client;
    private final String node;

    ClusterPods(KubernetesClient client, String node) {
        this.client = client;
        this.node = node;
    }

    /** A new namespace {@code <prefix>-<n>} with the ServiceAccount {@value #ACCOUNT}. */
    String namespace(String prefix) {
        String name = prefix + "-" + NAMESPACES.incrementAndGet();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
                .create();
        client.serviceAccounts().inNamespace(name).resource(new ServiceAccountBuilder().withNewMetadata()
                .withName(ACCOUNT).endMetadata().build()).create();
        return name;
    }

    /**
     * Creates {@code pod} in {@code namespace} on the agent's node (or the node its spec names), then gives it the
     * status of a running pod with the address {@code ip} and what {@code status} adds; returns it as stored.
     */
    Pod start(String namespace, Pod pod, String ip, UnaryOperator<PodStatusBuilder> status) {
        Pod bound = new PodBuilder(pod).editSpec()
                .withNodeName(Objects.requireNonNullElse(pod.getSpec().getNodeName(), node))
                .withServiceAccountName(ACCOUNT).endSpec().build();
        Pod created = client.pods().inNamespace(namespace).resource(bound).create();
        return client.pods().inNamespace(namespace).withName(created.getMetadata().getName())
                .editStatus(current -> new PodBuilder(current).withStatus(status.apply(new PodStatusBuilder()
                        .withPhase("Running").withPodIP(ip).withPodIPs(new PodIP(ip))).build()).build());
    }

    /** Gives {@code pod} the address {@code ip} in its status, as its kubelet reports it once the pod has one. */
    void address(Pod pod, String ip) {
        client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                .editStatus(current -> new PodBuilder(current).editStatus().withPodIP(ip).withPodIPs(new PodIP(ip))
                        .endStatus().build());
    }

    /** {@link #start(String, Pod, String, UnaryOperator)} with nothing but the address. */
    Pod start(String namespace, Pod pod, String ip) {
        return start(namespace, pod, ip, UnaryOperator.identity());
    }

    /** A projected token bound to {@code pod} with node mode's audience. */
    String token(Pod pod) {
        return token(pod, AUDIENCE);
    }

    /** A projected token bound to {@code pod} for {@code audience}, valid 10 minutes (the shortest the API takes). */
    String token(Pod pod, String audience) {
        return client.serviceAccounts().inNamespace(pod.getMetadata().getNamespace()).withName(ACCOUNT)
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withAudiences(audience)
                        .withExpirationSeconds(600L).withNewBoundObjectRef().withApiVersion("v1").withKind("Pod")
                        .withName(pod.getMetadata().getName()).withUid(pod.getMetadata().getUid())
                        .endBoundObjectRef().endSpec().build())
                .getStatus().getToken();
    }

    /** Deletes {@code pod} at once (grace period 0: no kubelet is there to end it) and returns once it is gone. */
    void delete(Pod pod) {
        var resource = client.pods().inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName());
        resource.withGracePeriod(0).delete();
        resource.waitUntilCondition(Objects::isNull, 30, TimeUnit.SECONDS);
    }
}
