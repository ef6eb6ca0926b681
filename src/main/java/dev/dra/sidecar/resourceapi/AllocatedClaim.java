package dev.dra.sidecar.resourceapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dra.sidecar.model.NetworkDeviceData;
import java.util.ArrayList;
import java.util.List;

/**
 * What a {@code resource.k8s.io/v1} ResourceClaim says of its allocated devices: the allocation's results, in order,
 * and the network data its {@code status.devices} publish. Immutable; made from the claim as the API server sends it.
 *
 * @param podClaimName the annotation {@code resource.kubernetes.io/pod-claim-name} of a claim made from a template;
 *     {@code null} for any other claim
 * @param ownerPodUid the UID of the pod that owns the claim (its controller owner reference, for a claim made from a
 *     template); {@code null} for a claim no pod owns
 * @param results {@code status.allocation.devices.results}, empty while the claim is not allocated
 * @param statuses the entries of {@code status.devices} that carry {@code networkData}
 */
public record AllocatedClaim(String namespace, String name, String uid, String podClaimName, String ownerPodUid,
        List<Result> results,
        List<DeviceStatus> statuses) {

    /** The annotation the resourceclaim controller puts on a claim it makes from a template. */
    static final String POD_CLAIM_NAME = "resource.kubernetes.io/pod-claim-name";

    /**
     * One allocated device.
     *
     * @param request the request it was allocated for, {@code <request>/<subrequest>} for a prioritized list's choice
     * @param shareID set for a device allocated to several claims at once; {@code null} otherwise
     */
    public record Result(String request, String driver, String pool, String device, String shareID) {

        /** The top-level request: the part of {@link #request()} before its {@code /}. */
        public String baseRequest() {
            int slash = request.indexOf('/');
            return slash < 0 ? request : request.substring(0, slash);
        }
    }

    /** The network data a driver published for one of the claim's devices ({@code status.devices[]}). */
    public record DeviceStatus(String driver, String pool, String device, String shareID,
            NetworkDeviceData networkData) {

        /** Whether this status is the one of {@code result}: same driver, pool and device, and same share if any. */
        boolean of(Result result) {
            return driver.equals(result.driver()) && pool.equals(result.pool()) && device.equals(result.device())
                    && (result.shareID() == null || result.shareID().equals(shareID));
        }
    }

    /** The claim as the API server sent it ({@code claim}: a ResourceClaim object). */
    public static AllocatedClaim of(JsonNode claim) {
        JsonNode meta = claim.path("metadata");
        String podClaimName = textOrNull(meta.path("annotations").path(POD_CLAIM_NAME));
        String ownerPodUid = null;
        for (JsonNode owner : meta.path("ownerReferences")) {
            if ("Pod".equals(owner.path("kind").asText()) && owner.path("controller").asBoolean(false)) {
                ownerPodUid = textOrNull(owner.path("uid"));
            }
        }
        List<Result> results = new ArrayList<>();
        for (JsonNode result : claim.path("status").path("allocation").path("devices").path("results")) {
            results.add(new Result(result.path("request").asText(), result.path("driver").asText(),
                    result.path("pool").asText(), result.path("device").asText(), textOrNull(result.path("shareID"))));
        }
        List<DeviceStatus> statuses = new ArrayList<>();
        for (JsonNode status : claim.path("status").path("devices")) {
            JsonNode network = status.path("networkData");
            if (network.isObject()) {
                List<String> ips = null;
                if (network.path("ips").isArray()) {
                    ips = new ArrayList<>();
                    for (JsonNode ip : network.path("ips")) {
                        ips.add(ip.asText());
                    }
                    ips = ips.isEmpty() ? null : List.copyOf(ips);
                }
                statuses.add(new DeviceStatus(status.path("driver").asText(), status.path("pool").asText(),
                        status.path("device").asText(), textOrNull(status.path("shareID")),
                        new NetworkDeviceData(emptyToNull(textOrNull(network.path("interfaceName"))), ips,
                                emptyToNull(textOrNull(network.path("hardwareAddress"))))));
            }
        }
        return new AllocatedClaim(meta.path("namespace").asText(), meta.path("name").asText(),
                meta.path("uid").asText(), podClaimName, ownerPodUid, List.copyOf(results), List.copyOf(statuses));
    }

    /** The network data published for {@code result}'s device, or {@code null}. */
    NetworkDeviceData networkData(Result result) {
        for (DeviceStatus status : statuses) {
            if (status.of(result)) {
                return status.networkData();
            }
        }
        return null;
    }

    private static String textOrNull(JsonNode node) {
        return node.isTextual() ? node.asText() : null;
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
