package dev.dra.sidecar.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The resource API's objects as a driver, the scheduler and a network driver make them: ResourceSlices of a pool,
 * ResourceClaims allocated and reserved for a pod, and the devices' status a network driver writes into a claim. Made
 * from their JSON through the API server, which validates them as it does for the real components.
 */
final class ResourceObjects {

    private static final ResourceDefinitionContext SLICES = context("ResourceSlice", "resourceslices", false);
    private static final ResourceDefinitionContext CLAIMS = context("ResourceClaim", "resourceclaims", true);

    private final KubernetesClient client;
    private final String node;

    ResourceObjects(KubernetesClient client, String node) {
        this.client = client;
        this.node = node;
    }

    /** One allocated device of a claim: its request, driver, pool and name. */
    record Result(String request, String driver, String pool, String device) {

        String json() {
            return "{\"request\":\"%s\",\"driver\":\"%s\",\"pool\":\"%s\",\"device\":\"%s\"}"
                    .formatted(request, driver, pool, device);
        }
    }

    /**
     * Publishes (creates or replaces) the slice {@code name}: generation {@code generation} of {@code driver}'s pool
     * {@code pool}, one slice of it, on the node, with {@code devices} (JSON objects of {@code spec.devices}).
     */
    void slice(String name, String driver, String pool, long generation, String... devices) {
        sliceOn(name, driver, pool, generation, "\"nodeName\":\"" + node + "\"", devices);
    }

    /** {@link #slice} of a pool that is not the node's: {@code allNodes}. */
    void sliceOfAllNodes(String name, String driver, String pool, long generation, String... devices) {
        sliceOn(name, driver, pool, generation, "\"allNodes\":true", devices);
    }

    private void sliceOn(String name, String driver, String pool, long generation, String where, String... devices) {
        GenericKubernetesResource slice = parse("""
                {"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"%s"},
                 "spec":{"driver":"%s",%s,"pool":{"name":"%s","generation":%d,"resourceSliceCount":1},
                 "devices":[%s]}}""".formatted(name, driver, where, pool, generation, String.join(",", devices)));
        client.genericKubernetesResources(SLICES).resource(slice).createOr(existing -> existing.update());
    }

    /**
     * Creates the claim {@code namespace/name} whose requests are those of {@code results}, then gives it the status
     * the scheduler gives it: allocated on the node with {@code results}, reserved for the pod {@code pod} (name, uid).
     *
     * @param meta more of the claim's metadata, JSON members ({@code ""} for none)
     */
    void allocatedClaim(String namespace, String name, String meta, String podName, String podUid,
            Result... results) {
        String requests = List.of(results).stream().map(r -> r.request().split("/")[0]).distinct()
                .map(r -> "{\"name\":\"" + r + "\",\"exactly\":{\"deviceClassName\":\"any.example.com\","
                        + "\"allocationMode\":\"All\"}}")
                .collect(Collectors.joining(","));
        GenericKubernetesResource claim = parse("""
                {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
                 "metadata":{"name":"%s","namespace":"%s"%s},"spec":{"devices":{"requests":[%s]}}}"""
                .formatted(name, namespace, meta.isEmpty() ? "" : "," + meta, requests));
        GenericKubernetesResource created = client.genericKubernetesResources(CLAIMS).inNamespace(namespace)
                .resource(claim).create();
        created.setAdditionalProperty("status", parse("""
                {"status":{"allocation":{"devices":{"results":[%s]},"nodeSelector":{"nodeSelectorTerms":[
                  {"matchFields":[{"key":"metadata.name","operator":"In","values":["%s"]}]}]}},
                 "reservedFor":[{"resource":"pods","name":"%s","uid":"%s"}]}}"""
                .formatted(List.of(results).stream().map(Result::json).collect(Collectors.joining(",")), node,
                        podName, podUid)).getAdditionalProperties().get("status"));
        client.genericKubernetesResources(CLAIMS).inNamespace(namespace).resource(created).updateStatus();
    }

    /** Writes {@code devices} (JSON objects of {@code status.devices}) into the claim's status, as a network driver. */
    @SuppressWarnings("unchecked")
    void deviceStatus(String namespace, String name, String... devices) {
        GenericKubernetesResource claim = client.genericKubernetesResources(CLAIMS).inNamespace(namespace)
                .withName(name).get();
        Map<String, Object> status = (Map<String, Object>) claim.getAdditionalProperties().get("status");
        status.put("devices", parse("{\"devices\":[" + String.join(",", devices) + "]}").getAdditionalProperties()
                .get("devices"));
        client.genericKubernetesResources(CLAIMS).inNamespace(namespace).resource(claim).updateStatus();
    }

    /** The UID of the claim {@code namespace/name}. */
    String uid(String namespace, String name) {
        return client.genericKubernetesResources(CLAIMS).inNamespace(namespace).withName(name).get().getMetadata()
                .getUid();
    }

    /** Removes the node's and every other slice these tests published. */
    void deleteSlices() {
        client.genericKubernetesResources(SLICES).delete();
    }

    private GenericKubernetesResource parse(String json) {
        return client.getKubernetesSerialization().unmarshal(json, GenericKubernetesResource.class);
    }

    private static ResourceDefinitionContext context(String kind, String plural, boolean namespaced) {
        return new ResourceDefinitionContext.Builder().withGroup("resource.k8s.io").withVersion("v1").withKind(kind)
                .withPlural(plural).withNamespaced(namespaced).build();
    }
}
