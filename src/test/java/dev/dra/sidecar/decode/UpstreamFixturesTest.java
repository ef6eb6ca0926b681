package dev.dra.sidecar.decode;

import static dev.dra.sidecar.decode.TestStreams.V1ALPHA1;
import static dev.dra.sidecar.decode.TestStreams.V1BETA1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import dev.dra.sidecar.model.Device;
import dev.dra.sidecar.model.DeviceAttribute;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.model.ManagedFieldsEntry;
import dev.dra.sidecar.model.RawJson;
import dev.dra.sidecar.model.ObjectMeta;
import dev.dra.sidecar.model.OwnerReference;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every upstream example file decodes to exactly what the Go reader returns. */
class UpstreamFixturesTest {

    private static final Path DIR = TestStreams.fixtures().resolve("upstream");
    private static final String HEAD = "k8s-testdata-HEAD_multiversion-stream_v1beta1-then-v1alpha1_fully-populated.json";
    private static final String V1_36 = "k8s-testdata-v1.36.0_single-object_v1alpha1_fully-populated.json";
    private static final String WEBSITE = "website-dra-features_v1beta1_template-claim_podClaimName_gpu.json";
    private static final String KEP = "kep-5304-readme_v1alpha1_direct-claim_design-example.json";
    private static final String COMPACT = "devicemetadata-example_test_compact-stream_unknown-v1000-then-v1alpha1.json";
    private static final String CPU = "dra-cpu-driver-doc_v1beta1_template-claim_int-bool-string-attributes.json";

    private static DecodedMetadata decode(String file) throws MetadataDecodeException {
        return MetadataStreamDecoder.decode(TestStreams.read(DIR.resolve(file)), file);
    }

    @Test
    void everyUpstreamFileIsCovered() throws IOException {
        try (Stream<Path> files = Files.list(DIR)) {
            List<String> json = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted().toList();
            assertEquals(List.of(COMPACT, CPU, HEAD, V1_36, KEP, WEBSITE).stream().sorted().toList(), json);
        }
    }

    @Test
    void headStreamTakesTheFirstObjectWithEveryField() throws Exception {
        DecodedMetadata decoded = decode(HEAD);
        assertEquals(V1BETA1, decoded.sourceVersion());
        assertEquals(List.of(), decoded.skippedVersions());
        DeviceMetadata dm = decoded.object();
        assertEquals("DeviceMetadata", dm.kind());
        assertEquals(V1BETA1, dm.apiVersion());
        assertEquals("<no json tag> PodClaimNameValue", dm.podClaimName());

        ObjectMeta meta = dm.metadata();
        assertEquals("claim", meta.name());
        assertEquals("generateNameValue", meta.generateName());
        assertEquals("default", meta.namespace());
        assertEquals("selfLinkValue", meta.selfLink());
        assertEquals("claim-uid", meta.uid());
        assertEquals("resourceVersionValue", meta.resourceVersion());
        assertEquals(7L, meta.generation());
        assertEquals("2008-01-01T01:01:01Z", meta.creationTimestamp());
        assertEquals("2009-01-01T01:01:01Z", meta.deletionTimestamp());
        assertEquals(10L, meta.deletionGracePeriodSeconds());
        assertEquals(Map.of("labelsKey", "labelsValue"), meta.labels());
        assertEquals(Map.of("annotationsKey", "annotationsValue"), meta.annotations());
        assertEquals(List.of(new OwnerReference("apiVersionValue", "kindValue", "nameValue", "uidValue", true, true)),
                meta.ownerReferences());
        assertEquals(List.of("finalizersValue"), meta.finalizers());
        ManagedFieldsEntry mf = meta.managedFields().get(0);
        assertEquals(1, meta.managedFields().size());
        assertEquals("managerValue", mf.manager());
        assertEquals("operationValue", mf.operation());
        assertEquals("apiVersionValue", mf.apiVersion());
        assertEquals("2004-01-01T01:01:01Z", mf.time());
        assertEquals("fieldsTypeValue", mf.fieldsType());
        assertEquals(new RawJson("{}"), mf.fieldsV1());
        assertEquals("subresourceValue", mf.subresource());

        assertEquals(1, dm.requests().size());
        assertEquals("request", dm.requests().get(0).name());
        Device device = dm.requests().get(0).devices().get(0);
        assertEquals(1, dm.requests().get(0).devices().size());
        assertEquals("gpu.example.com", device.driver());
        assertEquals("worker-0", device.pool());
        assertEquals("gpu-0", device.name());
        DeviceAttribute model = device.attributes().get("model");
        assertEquals(Map.of("model", model), device.attributes());
        assertEquals(new DeviceAttribute(2L, true, "LATEST-GPU-MODEL", "versionValue", List.of(6L), List.of(true),
                List.of("stringsValue"), List.of("versionsValue")), model);
        assertEquals(List.of("int", "bool", "string", "version", "ints", "bools", "strings", "versions"), model.setMembers());
        assertEquals("interfaceNameValue", device.networkData().interfaceName());
        assertEquals(List.of("ipsValue"), device.networkData().ips());
        assertEquals("hardwareAddressValue", device.networkData().hardwareAddress());
    }

    @Test
    void headObjectRoundTripsThroughTheEncoder() throws Exception {
        ObjectMapper json = GoCompatibleJson.mapper();
        JsonNode firstObject = json.readerFor(JsonNode.class).<JsonNode>readValues(TestStreams.read(DIR.resolve(HEAD))).next();
        // the bytes, read back: raw values (fieldsV1) compare as the JSON they are
        JsonNode encoded = json.readTree(json.writeValueAsBytes(decode(HEAD).object()));
        TestStreams.assertJsonEquals(withoutTypeMeta(firstObject), withoutTypeMeta(encoded));
    }

    private static JsonNode withoutTypeMeta(JsonNode node) {
        ObjectNode copy = ((ObjectNode) node).deepCopy();
        copy.remove(List.of("kind", "apiVersion"));
        return copy;
    }

    @Test
    void headReportsTheUnionViolationButStillDecodes() throws Exception {
        List<Violation> violations = MetadataValidator.validate(decode(HEAD).object());
        // the fixture's managed fields entry has the operation "operationValue": v0.37's ObjectMeta rules refuse it
        assertEquals(List.of("metadata.managedFields[0].operation", "podClaimName", "requests[0].devices[0].attributes[model]"),
                violations.stream().map(Violation::field).toList(), violations::toString);
        assertEquals(List.of("NotSupported", "Invalid", "Invalid"), violations.stream().map(Violation::type).toList());
        TestStreams.assertContainsInOrder(violations.get(2).message(), "exactly one",
                "int, bool, string, version, ints, bools, strings, versions");
    }

    @Test
    void v136SingleObjectIsTheSameObjectInV1alpha1() throws Exception {
        DecodedMetadata old = decode(V1_36);
        assertEquals(V1ALPHA1, old.sourceVersion());
        assertEquals(V1ALPHA1, old.object().apiVersion());
        assertEquals(List.of(), old.skippedVersions());
        assertEquals(decode(HEAD).object(), old.object().withApiVersion(V1BETA1));
    }

    @Test
    void websiteTemplateClaim() throws Exception {
        DecodedMetadata decoded = decode(WEBSITE);
        assertEquals(V1BETA1, decoded.sourceVersion());
        DeviceMetadata dm = decoded.object();
        assertEquals("gpu", dm.podClaimName());
        assertEquals(ObjectMeta.identity("pod0-gpu-2kqrd", "gpu-test1", "c7e7b22e-239b-4498-b27c-7f1344481e14"),
                withoutGeneration(dm.metadata()));
        assertEquals(1L, dm.metadata().generation());
        Device device = dm.requests().get(0).devices().get(0);
        assertEquals("gpu", dm.requests().get(0).name());
        assertEquals(Map.of(
                "driverVersion", version("1.0.0"),
                "index", integer(0),
                "model", string("LATEST-GPU-MODEL"),
                "uuid", string("gpu-18db0e85-99e9-c746-8531-ffeb86328b39")), device.attributes());
        assertNull(device.networkData());
        assertEquals(List.of(), MetadataValidator.validate(dm));
    }

    @Test
    void kepExampleWithQualifiedKeyAndOtherKeyOrder() throws Exception {
        DecodedMetadata decoded = decode(KEP);
        assertEquals(V1ALPHA1, decoded.sourceVersion());
        DeviceMetadata dm = decoded.object();
        assertNull(dm.podClaimName());
        assertEquals("gpu-request", dm.requests().get(0).name());
        Device device = dm.requests().get(0).devices().get(0);
        assertEquals(List.of("example.com", "node-1-gpus", "gpu-0"), List.of(device.driver(), device.pool(), device.name()));
        assertEquals(string("0000:00:01.0"), device.attributes().get("resource.k8s.io/pciBusID"));
        assertEquals(integer(1), device.attributes().get("index"));
        assertEquals(5, device.attributes().size());
        assertEquals(List.of(), MetadataValidator.validate(dm));
    }

    @Test
    void compactStreamSkipsTheUnknownVersion() throws Exception {
        DecodedMetadata decoded = decode(COMPACT);
        assertEquals(V1ALPHA1, decoded.sourceVersion());
        assertEquals(List.of("metadata.resource.k8s.io/v1000"), decoded.skippedVersions());
        DeviceMetadata dm = decoded.object();
        assertEquals(ObjectMeta.identity("my-claim", "default", "uid-1234"), withoutGeneration(dm.metadata()));
        assertEquals(Map.of("model", string("LATEST-GPU-MODEL"), "type", string("gpu")),
                dm.requests().get(0).devices().get(0).attributes());
    }

    @Test
    void cpuDriverDocument() throws Exception {
        DecodedMetadata decoded = decode(CPU);
        assertEquals(V1BETA1, decoded.sourceVersion());
        DeviceMetadata dm = decoded.object();
        assertEquals("vcpus", dm.podClaimName());
        assertEquals("\u2026", dm.metadata().uid());
        Device device = dm.requests().get(0).devices().get(0);
        assertEquals("dra.cpu", device.driver());
        assertEquals(10, device.attributes().size());
        assertEquals(integer(16), device.attributes().get("dra.cpu/numCPUs"));
        assertEquals(integer(0), device.attributes().get("resource.kubernetes.io/numaNode"));
        assertEquals(new DeviceAttribute(null, false, null, null, null, null, null, null),
                device.attributes().get("dra.cpu/relocatable"));
        assertEquals(string("8-15,136-143"), device.attributes().get("dra.cpu/cpuset"));
        assertEquals(List.of(), MetadataValidator.validate(dm));
    }

    static ObjectMeta withoutGeneration(ObjectMeta m) {
        return ObjectMeta.identity(m.name(), m.namespace(), m.uid());
    }

    static DeviceAttribute string(String s) {
        return new DeviceAttribute(null, null, s, null, null, null, null, null);
    }

    static DeviceAttribute version(String s) {
        return new DeviceAttribute(null, null, null, s, null, null, null, null);
    }

    static DeviceAttribute integer(long v) {
        return new DeviceAttribute(v, null, null, null, null, null, null, null);
    }
}
