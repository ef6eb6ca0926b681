package dev.dra.sidecar.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.model.Device;
import dev.dra.sidecar.model.DeviceAttribute;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.model.DeviceMetadataRequest;
import dev.dra.sidecar.model.NetworkDeviceData;
import dev.dra.sidecar.model.ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The upstream validation rules of {@code DeviceMetadata} (the same for v1alpha1 and v1beta1), each with the
 * field path Kubernetes reports: podClaimName a DNS label; every request named; a device's driver a DNS
 * subdomain (any case) of at most 63 characters, its pool one or more DNS subdomains joined by '/' (253 at
 * most), its name a DNS label; at most 32 attributes, each with exactly one member set (lists count when not
 * empty) and string list items of at most 64 bytes; networkData with an interface name of at most 256 bytes,
 * a hardware address of at most 128 bytes and at most 16 distinct IPs. Attribute keys are not validated.
 */
class MetadataValidatorTest {

    private static final String DEVICE = "requests[0].devices[0]";

    static DeviceAttribute str(String s) {
        return new DeviceAttribute(null, null, s, null, null, null, null, null);
    }

    static Device device(String driver, String pool, String name) {
        return new Device(driver, pool, name, null, null);
    }

    static DeviceMetadata withDevice(Device device) {
        return new DeviceMetadata(DeviceMetadata.KIND, DeviceMetadata.V1BETA1,
                new ObjectMeta("c", null, "ns", null, "uid", null, 1L, null, null, null, null, null, null, null, null),
                "pod-claim", List.of(new DeviceMetadataRequest("gpu", List.of(device))));
    }

    static DeviceMetadata withAttributes(Map<String, DeviceAttribute> attributes) {
        return withDevice(new Device("gpu.example.com", "worker-0", "gpu-0", attributes, null));
    }

    static DeviceMetadata withNetworkData(NetworkDeviceData data) {
        return withDevice(new Device("gpu.example.com", "worker-0", "gpu-0", null, data));
    }

    /** Asserts the violations, as {@code field type} strings, in order. */
    static void assertViolations(DeviceMetadata dm, String... expected) {
        List<Violation> v = MetadataValidator.validate(dm);
        assertEquals(List.of(expected), v.stream().map(x -> x.field() + " " + x.type()).toList(), v::toString);
    }

    @Test
    void aValidObjectHasNoViolations() {
        Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
        attributes.put("model", str("x".repeat(200))); // scalar string length is not validated
        attributes.put("resource.kubernetes.io/pciBusID", str("0000:00:01.0"));
        attributes.put("not a qualified name!", new DeviceAttribute(-1L, null, null, null, null, null, null, null));
        attributes.put("v", new DeviceAttribute(null, null, null, "not semver", null, null, null, null));
        attributes.put("l", new DeviceAttribute(null, null, null, null, List.of(1L), null, null, null));
        assertViolations(withAttributes(attributes));
        assertViolations(withNetworkData(new NetworkDeviceData("eth0", List.of("not-an-ip", "10.0.0.1/24"), "whatever")));
        assertViolations(new DeviceMetadata(DeviceMetadata.KIND, DeviceMetadata.V1BETA1, null, null, null));
        assertViolations(withDevice(device("gpu.example.com", "pool/with/segments.example", "a")));
    }

    @Test
    void negativeGeneration() {
        DeviceMetadata dm = new DeviceMetadata(DeviceMetadata.KIND, DeviceMetadata.V1BETA1,
                new ObjectMeta(null, null, null, null, null, null, -1L, null, null, null, null, null, null, null, null), null, null);
        assertViolations(dm, "metadata.generation Invalid");
    }

    @ParameterizedTest
    @ValueSource(strings = {"INVALID", "", "-a", "a-", "a.b", "a_b", "x234567890123456789012345678901234567890123456789012345678901234"})
    void podClaimNameMustBeADnsLabel(String name) {
        assertViolations(new DeviceMetadata(DeviceMetadata.KIND, DeviceMetadata.V1BETA1, null, name, null), "podClaimName Invalid");
    }

    @Test
    void requestNameIsRequiredButNotFormatChecked() {
        assertViolations(new DeviceMetadata(DeviceMetadata.KIND, DeviceMetadata.V1BETA1, null, null,
                List.of(new DeviceMetadataRequest("gpu/sub_Request!", null), new DeviceMetadataRequest("", null),
                        new DeviceMetadataRequest(null, List.of()))),
                "requests[1].name Required", "requests[2].name Required");
    }

    @Test
    void requiredDeviceFields() {
        assertViolations(withDevice(device(null, "", null)), DEVICE + ".driver Required", DEVICE + ".pool Required",
                DEVICE + ".name Required");
    }

    @ParameterizedTest
    @ValueSource(strings = {"GPU.example.com", "gpu.EXAMPLE.com", "a", "x23456789012345678901234567890123456789012345678901234567890123"})
    void driverIsACaseInsensitiveSubdomainOfAtMost63(String driver) {
        assertViolations(withDevice(device(driver, "p", "d")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"gpu_example.com", "-gpu.example.com", "gpu..example", "gpu.example.com.", "gpu/x"})
    void driverWithInvalidFormat(String driver) {
        assertViolations(withDevice(device(driver, "p", "d")), DEVICE + ".driver Invalid");
    }

    @Test
    void driverLongerThan63() {
        assertViolations(withDevice(device("a".repeat(64), "p", "d")), DEVICE + ".driver TooLong");
        assertViolations(withDevice(device("a.".repeat(31) + "ab", "p", "d")), DEVICE + ".driver TooLong");
    }

    @ParameterizedTest
    @ValueSource(strings = {"worker-0/", "/worker-0", "a//b", "Worker-0", "worker_0", "a/B"})
    void poolSegmentsMustBeLowercaseSubdomains(String pool) {
        assertViolations(withDevice(device("d", pool, "n")), DEVICE + ".pool Invalid");
    }

    @Test
    void poolLength() {
        String segment = "a".repeat(63);
        String ok = String.join("/", segment, segment, segment, "a".repeat(61)); // 253
        assertViolations(withDevice(device("d", ok, "n")));
        List<Violation> v = MetadataValidator.validate(withDevice(device("d", ok + "a", "n")));
        assertEquals(List.of(DEVICE + ".pool TooLong"), v.stream().map(x -> x.field() + " " + x.type()).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"GPU-0", "gpu.0", "gpu_0", "-gpu", "x234567890123456789012345678901234567890123456789012345678901234"})
    void deviceNameMustBeADnsLabel(String name) {
        assertViolations(withDevice(device("d", "p", name)), DEVICE + ".name Invalid");
    }

    @Test
    void atMost32Attributes() {
        Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
        for (int i = 0; i < 32; i++) {
            attributes.put("a" + i, str("v"));
        }
        assertViolations(withAttributes(attributes));
        attributes.put("a32", str("v"));
        assertViolations(withAttributes(attributes), DEVICE + ".attributes TooMany");
    }

    @Test
    void exactlyOneAttributeMember() {
        Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
        attributes.put("two", new DeviceAttribute(1L, true, null, null, null, null, null, null));
        attributes.put("none", new DeviceAttribute(null, null, null, null, List.of(), List.of(), null, null));
        attributes.put("listAndScalar", new DeviceAttribute(null, null, "s", null, null, null, List.of("s"), null));
        attributes.put("emptyListsDoNotCount", new DeviceAttribute(null, null, null, "1.0.0", List.of(), null, List.of(), List.of()));
        List<Violation> v = MetadataValidator.validate(withAttributes(attributes));
        assertEquals(List.of(DEVICE + ".attributes[two]", DEVICE + ".attributes[none]", DEVICE + ".attributes[listAndScalar]"),
                v.stream().map(Violation::field).toList(), v::toString);
        assertEquals("Invalid", v.get(0).type());
        TestStreams.assertContainsInOrder(v.get(0).message(), "exactly one", "int, bool");
        assertEquals("Invalid", v.get(2).type());
    }

    @Test
    void stringsItemsAreAtMost64Bytes() {
        String ascii64 = "x".repeat(64);
        String euro22 = "\u20ac".repeat(22); // 22 characters, 66 bytes
        Map<String, DeviceAttribute> attributes = Map.of("s",
                new DeviceAttribute(null, null, null, null, null, null, List.of(ascii64, ascii64 + "x", euro22), null));
        assertViolations(withAttributes(attributes), DEVICE + ".attributes[s].strings[1] TooLong",
                DEVICE + ".attributes[s].strings[2] TooLong");
    }

    @Test
    void networkDataLimits() {
        assertViolations(withNetworkData(new NetworkDeviceData("i".repeat(256), null, "h".repeat(128))));
        assertViolations(withNetworkData(new NetworkDeviceData("i".repeat(257), null, "h".repeat(129))),
                DEVICE + ".networkData.interfaceName TooLong", DEVICE + ".networkData.hardwareAddress TooLong");
        assertViolations(withNetworkData(new NetworkDeviceData("\u00e9".repeat(129), null, "\u00e9".repeat(65))),
                DEVICE + ".networkData.interfaceName TooLong", DEVICE + ".networkData.hardwareAddress TooLong");
        List<String> ips = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            ips.add("10.0.0." + i + "/24");
        }
        assertViolations(withNetworkData(new NetworkDeviceData(null, ips, null)));
        ips.add("10.0.1.0/24");
        assertViolations(withNetworkData(new NetworkDeviceData(null, ips, null)), DEVICE + ".networkData.ips TooMany");
    }

    @Test
    void duplicateIps() {
        assertViolations(withNetworkData(new NetworkDeviceData(null,
                        List.of("10.0.0.1/24", "2001:db8::5/64", "10.0.0.1/24", "2001:db8::5/64"), null)),
                DEVICE + ".networkData.ips[2] Duplicate", DEVICE + ".networkData.ips[3] Duplicate");
    }

    @Test
    void violationsCarryTheIndexOfEachRequestAndDevice() {
        DeviceMetadata dm = new DeviceMetadata(DeviceMetadata.KIND, DeviceMetadata.V1BETA1, null, null, List.of(
                new DeviceMetadataRequest("a", List.of(device("d", "p", "ok"))),
                new DeviceMetadataRequest("b", List.of(device("d", "p", "ok"), device("d", "p", "GPU-0")))));
        assertViolations(dm, "requests[1].devices[1].name Invalid");
    }

    @Test
    void decodedInvalidObjectStillDecodes() throws Exception {
        DecodedMetadata d = TestStreams.decode(TestStreams.BETA + ",\"podClaimName\":\"INVALID\",\"requests\":[{\"name\":\"r\","
                + "\"devices\":[{\"driver\":\"GPU.example.com\",\"pool\":\"worker-0/\",\"name\":\"GPU-0\"}]}]}");
        assertEquals("INVALID", d.object().podClaimName());
        assertViolations(d.object(), "podClaimName Invalid", DEVICE + ".pool Invalid", DEVICE + ".name Invalid");
        assertTrue(MetadataValidator.validate(d.object()).stream().allMatch(v -> !v.message().isBlank()));
    }
}
