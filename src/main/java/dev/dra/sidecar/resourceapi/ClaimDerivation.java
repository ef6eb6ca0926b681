package dev.dra.sidecar.resourceapi;

import dev.dra.sidecar.model.Device;
import dev.dra.sidecar.model.DeviceAttribute;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.model.DeviceMetadataRequest;
import dev.dra.sidecar.model.ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The {@code DeviceMetadata} a driver would write for a claim's request, made from what the cluster knows instead of a
 * file: one object per top-level request and driver, as upstream's writer files them. Its {@code requests} hold the
 * allocation's results of that driver for that request, in allocation order, grouped under the request name each
 * result gives ({@code <request>/<subrequest>} for a prioritized list's choice); each device has its {@code driver},
 * {@code pool} and {@code name}, the attributes of its pool's newest complete generation ({@link SliceAttributes}),
 * and the {@code networkData} of its entry in the claim's {@code status.devices}. {@code metadata} names the claim
 * (name, namespace, uid; no generation, which is a file's), {@code podClaimName} the pod's claim name of a claim made
 * from a template.
 *
 * <p>A device whose pool is not settled yet (some slices of its newest generation unseen, or its slices not listed
 * yet) holds back its request's object for that driver: it is made once the pool settles, rather than served without
 * attributes and then changed. A device its settled pool does not list (or a pool with no slice at all) is served
 * without attributes.
 */
final class ClaimDerivation {

    private ClaimDerivation() {}

    /**
     * The claim's objects by top-level request and driver (both sorted); empty for a claim without allocation.
     *
     * @param pools each pool as it stands; {@link ResourceSlices.Incomplete} for one that is not settled
     */
    static SortedMap<String, SortedMap<String, DeviceMetadata>> derive(AllocatedClaim claim,
            Function<ResourceSlices.PoolKey, ResourceSlices.Pool> pools) {
        Map<String, Map<String, Map<String, List<Device>>>> grouped = new TreeMap<>();
        Map<String, Map<String, Boolean>> heldBack = new TreeMap<>();
        for (AllocatedClaim.Result result : claim.results()) {
            ResourceSlices.Pool pool = pools.apply(new ResourceSlices.PoolKey(result.driver(), result.pool()));
            if (pool instanceof ResourceSlices.Incomplete) {
                heldBack.computeIfAbsent(result.baseRequest(), r -> new TreeMap<>()).put(result.driver(), true);
                continue;
            }
            Map<String, DeviceAttribute> attributes = pool instanceof ResourceSlices.Complete complete
                    ? complete.devices().get(result.device()) : null;
            Device device = new Device(result.driver(), result.pool(), result.device(),
                    attributes == null || attributes.isEmpty() ? null : attributes, claim.networkData(result));
            grouped.computeIfAbsent(result.baseRequest(), r -> new TreeMap<>())
                    .computeIfAbsent(result.driver(), d -> new LinkedHashMap<>())
                    .computeIfAbsent(result.request(), r -> new ArrayList<>()).add(device);
        }
        SortedMap<String, SortedMap<String, DeviceMetadata>> out = new TreeMap<>();
        grouped.forEach((request, drivers) -> drivers.forEach((driver, requests) -> {
            if (!heldBack.getOrDefault(request, Map.of()).containsKey(driver)) {
                out.computeIfAbsent(request, r -> new TreeMap<>()).put(driver, object(claim, requests));
            }
        }));
        return out;
    }

    private static DeviceMetadata object(AllocatedClaim claim, Map<String, List<Device>> requests) {
        List<DeviceMetadataRequest> entries = new ArrayList<>(requests.size());
        requests.forEach((name, devices) -> entries.add(new DeviceMetadataRequest(name, List.copyOf(devices))));
        return new DeviceMetadata(DeviceMetadata.KIND, DeviceMetadata.V1BETA1,
                ObjectMeta.identity(claim.name(), claim.namespace(), claim.uid()), claim.podClaimName(),
                List.copyOf(entries));
    }
}
