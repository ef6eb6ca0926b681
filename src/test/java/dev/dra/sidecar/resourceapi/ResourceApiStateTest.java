package dev.dra.sidecar.resourceapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.DerivedClaims;
import dev.dra.sidecar.snapshot.NodeClaims;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The derivation from the objects as the API server sends them: a claim's allocation, its status, and the pools'
 * slices, encoded as every body of the API is.
 */
class ResourceApiStateTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final WantedClaim GPU_CLAIM = new WantedClaim(ClaimKind.CLAIM, "team", "gpu-claim", "gpu-claim",
            null, Set.of());

    @Test
    void aDeviceGetsTheAttributesOfItsPoolsNewestCompleteGenerationAndTheNetworkDataOfItsStatus() throws Exception {
        ResourceApiState state = new ResourceApiState();
        state.wanted(List.of(GPU_CLAIM));
        state.claimsListed("team", List.of(claim("""
                [{"request": "gpu", "driver": "gpu.example.com", "pool": "node-a", "device": "gpu-1"},
                 {"request": "gpu", "driver": "nic.example.com", "pool": "node-a", "device": "nic-0"}]""", """
                [{"driver": "nic.example.com", "pool": "node-a", "device": "nic-0",
                  "networkData": {"interfaceName": "eth1", "ips": ["192.0.2.5/24"]}}]""")));
        state.slicesListed(ResourceApiState.NODE_FEED, List.of(
                slice("a", "gpu.example.com", "node-a", 1, 1, """
                        {"name": "gpu-1", "attributes": {"uuid": {"string": "GPU-old"}}}"""),
                slice("b", "gpu.example.com", "node-a", 2, 2, """
                        {"name": "gpu-1", "attributes": {"uuid": {"string": "GPU-1"}, "memory": {"int": 81920},
                         "gpu.example.com/uuid": {"string": "GPU-qualified"}, "driverVersion": {"version": "1.2.3"},
                         "resource.kubernetes.io/pciBusID": {"string": "0000:01:00.0"}, "cores": {"ints": [0, 1]}}}"""),
                slice("c", "gpu.example.com", "node-a", 2, 2, """
                        {"name": "gpu-2"}"""),
                slice("d", "nic.example.com", "node-a", 5, 1, """
                        {"name": "nic-0"}""")));
        assertTrue(state.settled());

        DerivedClaims.Claim claim = state.derive().claims()
                .get(new NodeClaims.Scope(ClaimKind.CLAIM, "team", "gpu-claim"));
        assertEquals("gpu-claim", claim.directory());
        String meta = "{\"kind\":\"DeviceMetadata\",\"apiVersion\":\"metadata.resource.k8s.io/v1beta1\","
                + "\"metadata\":{\"name\":\"gpu-claim\",\"namespace\":\"team\",\"uid\":\"uid-1\"},";
        assertEquals(meta + """
                "requests":[{"name":"gpu","devices":[{"driver":"gpu.example.com","pool":"node-a","name":"gpu-1",\
                "attributes":{"cores":{"ints":[0,1]},"driverVersion":{"version":"1.2.3"},"gpu.example.com/uuid":\
                {"string":"GPU-qualified"},"memory":{"int":81920},"resource.kubernetes.io/pciBusID":\
                {"string":"0000:01:00.0"}}}]}]}""", encode(claim.requests().get("gpu").get("gpu.example.com")));
        assertEquals(meta + """
                "requests":[{"name":"gpu","devices":[{"driver":"nic.example.com","pool":"node-a","name":"nic-0",\
                "networkData":{"interfaceName":"eth1","ips":["192.0.2.5/24"]}}]}]}""",
                encode(claim.requests().get("gpu").get("nic.example.com")));
    }

    @Test
    void aPoolWithSlicesOfItsNewestGenerationMissingHoldsItsDriversObjectBack() throws Exception {
        ResourceApiState state = new ResourceApiState();
        state.wanted(List.of(GPU_CLAIM));
        state.claimsListed("team", List.of(claim("""
                [{"request": "gpu/big", "driver": "gpu.example.com", "pool": "node-a", "device": "gpu-1"}]""", "[]")));
        state.slicesListed(ResourceApiState.NODE_FEED, List.of(slice("a", "gpu.example.com", "node-a", 3, 2, """
                {"name": "gpu-1", "attributes": {"uuid": {"string": "GPU-1"}}}""")));
        assertFalse(state.settled());
        assertTrue(state.derive().claims().isEmpty());

        state.sliceChanged(ResourceApiState.NODE_FEED, slice("b", "gpu.example.com", "node-a", 3, 2, "{\"name\":\"gpu-2\"}"));
        assertTrue(state.settled());
        DerivedClaims.Claim claim = state.derive().claims().values().iterator().next();
        String body = encode(claim.requests().get("gpu").get("gpu.example.com"));
        assertTrue(body.contains("\"name\":\"gpu/big\""), body);
        assertTrue(body.contains("\"uuid\":{\"string\":\"GPU-1\"}"), body);
    }

    @Test
    void aPoolTheNodeDoesNotHoldWaitsForItsOwnFeedAndATemplateClaimIsFoundByItsPod() throws Exception {
        ResourceApiState state = new ResourceApiState();
        WantedClaim template = new WantedClaim(ClaimKind.TEMPLATE_CLAIM, "team", null, "my-nic", "pod-uid", Set.of());
        state.wanted(List.of(template));
        state.slicesListed(ResourceApiState.NODE_FEED, List.of());
        state.claimsListed("team", List.of(JSON.readTree("""
                {"metadata": {"name": "pod-my-nic-x7k2p", "namespace": "team", "uid": "uid-2",
                  "annotations": {"resource.kubernetes.io/pod-claim-name": "my-nic"},
                  "ownerReferences": [{"kind": "Pod", "name": "pod", "uid": "pod-uid", "controller": true}]},
                 "status": {"allocation": {"devices": {"results": [
                   {"request": "nic", "driver": "net.example.com", "pool": "fabric", "device": "port-3"}]}}}}""")));
        ResourceSlices.PoolKey fabric = new ResourceSlices.PoolKey("net.example.com", "fabric");
        assertEquals(Set.of(fabric), state.foreignPools());
        assertFalse(state.settled());

        state.slicesListed(ResourceApiState.poolFeed(fabric), List.of(slice("f", "net.example.com", "fabric", 1, 1,
                "{\"name\": \"port-3\", \"attributes\": {\"speed\": {\"int\": 400}}}")));
        assertTrue(state.settled());
        DerivedClaims.Claim claim = state.derive().claims()
                .get(new NodeClaims.Scope(ClaimKind.TEMPLATE_CLAIM, "team", "pod-my-nic-x7k2p"));
        assertEquals("my-nic", claim.directory());
        String body = encode(claim.requests().get("nic").get("net.example.com"));
        assertTrue(body.contains("\"podClaimName\":\"my-nic\"") && body.contains("\"speed\":{\"int\":400}"), body);
    }

    @Test
    void onlyTheWantedRequestsOfAnAllocatedClaimAreDerived() throws Exception {
        ResourceApiState state = new ResourceApiState();
        state.wanted(List.of(new WantedClaim(ClaimKind.CLAIM, "team", "gpu-claim", "gpu-claim", null, Set.of("b"))));
        state.slicesListed(ResourceApiState.NODE_FEED, List.of(slice("a", "gpu.example.com", "node-a", 1, 1,
                "{\"name\": \"gpu-1\"}, {\"name\": \"gpu-2\"}")));
        state.claimsListed("team", List.of(claim("""
                [{"request": "a", "driver": "gpu.example.com", "pool": "node-a", "device": "gpu-1"},
                 {"request": "b", "driver": "gpu.example.com", "pool": "node-a", "device": "gpu-2"}]""", "[]")));
        assertEquals(Set.of("b"), state.derive().claims().values().iterator().next().requests().keySet());

        state.claimChanged(JSON.readTree("{\"metadata\": {\"name\": \"gpu-claim\", \"namespace\": \"team\"}}"));
        assertTrue(state.derive().claims().isEmpty(), "a claim no longer allocated derives nothing");
    }

    /** The claim {@code team/gpu-claim} with these allocation results and these {@code status.devices}. */
    private static JsonNode claim(String results, String statusDevices) throws Exception {
        return JSON.readTree("""
                {"metadata": {"name": "gpu-claim", "namespace": "team", "uid": "uid-1"},
                 "status": {"allocation": {"devices": {"results": %s}}, "devices": %s}}"""
                .formatted(results, statusDevices));
    }

    private static JsonNode slice(String name, String driver, String pool, long generation, int count, String devices)
            throws Exception {
        return JSON.readTree("""
                {"metadata": {"name": "%s"}, "spec": {"driver": "%s", "nodeName": "node-a",
                 "pool": {"name": "%s", "generation": %d, "resourceSliceCount": %d}, "devices": [%s]}}"""
                .formatted(name, driver, pool, generation, count, devices));
    }

    private static String encode(Object object) throws Exception {
        return GoCompatibleJson.mapper().writeValueAsString(object);
    }
}
