package dev.dra.sidecar.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.dra.sidecar.model.Device;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.model.DeviceMetadataRequest;
import dev.dra.sidecar.model.ObjectMeta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Go's {@code readRequestDir} merge: files in byte order of their names, requests of the same name
 * concatenate their devices, podClaimName from the first file that has one. Plus the claim identity rule this
 * project documents: the merged metadata keeps name, namespace and uid when every file agrees, never a
 * generation.
 */
class RequestMergerTest {

    static ObjectMeta meta(String name, String namespace, String uid, Long generation) {
        return new ObjectMeta(name, null, namespace, null, uid, null, generation, "2008-01-01T01:01:01Z", null, null,
                Map.of("l", "v"), null, null, null, null);
    }

    static DeviceMetadata file(ObjectMeta meta, String podClaimName, DeviceMetadataRequest... requests) {
        return new DeviceMetadata(DeviceMetadata.KIND, DeviceMetadata.V1ALPHA1, meta, podClaimName,
                requests.length == 0 ? null : List.of(requests));
    }

    static DeviceMetadataRequest request(String name, String... deviceNames) {
        List<Device> devices = new ArrayList<>();
        for (String d : deviceNames) {
            devices.add(new Device("drv", "pool", d, null, null));
        }
        return new DeviceMetadataRequest(name, devices.isEmpty() ? null : devices);
    }

    static List<String> deviceNames(DeviceMetadataRequest r) {
        return r.devices() == null ? List.of() : r.devices().stream().map(Device::name).toList();
    }

    @Test
    void devicesOfTheSameRequestConcatenateInByteOrderOfFileNames() {
        ObjectMeta m = meta("c", "ns", "u", 1L);
        Map<String, DeviceMetadata> files = new HashMap<>();
        files.put("b.example.com-metadata.json", file(m, null, request("gpu", "b0", "b1")));
        files.put("a.example.com-metadata.json", file(m, null, request("gpu", "a0")));
        files.put("B.example.com-metadata.json", file(m, null, request("gpu", "B0")));       // 'B' < 'a' in bytes
        files.put("\uFFFD-metadata.json", file(m, null, request("gpu", "replacement")));
        files.put("\uD83D\uDE00-metadata.json", file(m, null, request("gpu", "emoji")));     // UTF-8 F0.. > EF..
        DeviceMetadata merged = RequestMerger.merge(files);
        assertEquals(1, merged.requests().size());
        assertEquals(List.of("B0", "a0", "b0", "b1", "replacement", "emoji"), deviceNames(merged.requests().get(0)));
        assertEquals(DeviceMetadata.KIND, merged.kind());
        assertEquals(DeviceMetadata.V1BETA1, merged.apiVersion());
    }

    @Test
    void subrequestsStaySeparateInOrderOfFirstAppearance() {
        Map<String, DeviceMetadata> files = Map.of(
                "a-metadata.json", file(null, null, request("gpu/sub", "s0"), request("gpu", "g0")),
                "b-metadata.json", file(null, null, request("gpu", "g1"), request("nic", "n0"), request("gpu/sub", "s1")));
        DeviceMetadata merged = RequestMerger.merge(files);
        assertEquals(List.of("gpu/sub", "gpu", "nic"), merged.requests().stream().map(DeviceMetadataRequest::name).toList());
        assertEquals(List.of("s0", "s1"), deviceNames(merged.requests().get(0)));
        assertEquals(List.of("g0", "g1"), deviceNames(merged.requests().get(1)));
        assertEquals(List.of("n0"), deviceNames(merged.requests().get(2)));
    }

    @Test
    void duplicateDevicesAreNotRemoved() {
        DeviceMetadata merged = RequestMerger.merge(Map.of(
                "a-metadata.json", file(null, null, request("gpu", "d")),
                "b-metadata.json", file(null, null, request("gpu", "d"))));
        assertEquals(List.of("d", "d"), deviceNames(merged.requests().get(0)));
    }

    @Test
    void requestsWithoutDevicesAndFilesWithoutRequests() {
        DeviceMetadata merged = RequestMerger.merge(Map.of(
                "a-metadata.json", file(null, null),
                "b-metadata.json", file(null, null, request("empty"))));
        assertEquals(1, merged.requests().size());
        assertNull(merged.requests().get(0).devices());
        assertNull(RequestMerger.merge(Map.of("a-metadata.json", file(null, null))).requests());
    }

    @Test
    void podClaimNameFromTheFirstFileThatHasOne() {
        Map<String, DeviceMetadata> files = Map.of(
                "c-metadata.json", file(null, "third", request("r", "c")),
                "a-metadata.json", file(null, null, request("r", "a")),
                "b-metadata.json", file(null, "second", request("r", "b")));
        assertEquals("second", RequestMerger.merge(files).podClaimName());
        assertNull(RequestMerger.merge(Map.of("a-metadata.json", file(null, null, request("r", "a")))).podClaimName());
    }

    @Test
    void claimIdentityIsKeptWhenAllFilesAgreeButNeverTheGeneration() {
        DeviceMetadata merged = RequestMerger.merge(Map.of(
                "a-metadata.json", file(meta("c", "ns", "u", 1L), null, request("r", "a")),
                "b-metadata.json", file(meta("c", "ns", "u", 5L), null, request("r", "b"))));
        assertEquals(ObjectMeta.identity("c", "ns", "u"), merged.metadata());
        assertNull(merged.metadata().generation());
        assertNull(merged.metadata().creationTimestamp());
        assertNull(merged.metadata().labels());
    }

    @Test
    void claimIdentityIsDroppedWhenFilesDisagree() {
        ObjectMeta empty = ObjectMeta.identity(null, null, null);
        for (ObjectMeta other : new ObjectMeta[] {meta("c", "ns", "other-uid", 1L), meta("c", "other", "u", 1L),
            meta("other", "ns", "u", 1L), meta(null, "ns", "u", 1L), null}) {
            DeviceMetadata merged = RequestMerger.merge(Map.of(
                    "a-metadata.json", file(meta("c", "ns", "u", 1L), null, request("r", "a")),
                    "b-metadata.json", file(other, null, request("r", "b"))));
            assertEquals(empty, merged.metadata(), () -> "with " + other);
        }
    }

    @Test
    void mergingDecodedConformanceFilesMatchesTheGoExample() throws Exception {
        var dir = TestStreams.fixtures().resolve("conformance/root/resourceclaims/multi/gpu");
        Map<String, DeviceMetadata> files = new HashMap<>();
        for (String name : List.of("b.example.com-metadata.json", "a.example.com-metadata.json")) {
            files.put(name, MetadataStreamDecoder.decode(TestStreams.read(dir.resolve(name)), name).object());
        }
        DeviceMetadata merged = RequestMerger.merge(files);
        assertEquals(List.of("a-0", "b-0", "b-1"), deviceNames(merged.requests().get(0)));
        assertEquals(ObjectMeta.identity("multi", "default", "uid-1"), merged.metadata());
    }
}
