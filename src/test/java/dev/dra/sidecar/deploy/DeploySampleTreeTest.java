package dev.dra.sidecar.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dra.sidecar.decode.DecodedMetadata;
import dev.dra.sidecar.decode.MetadataStreamDecoder;
import dev.dra.sidecar.decode.MetadataValidator;
import dev.dra.sidecar.model.Device;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.model.DeviceMetadataRequest;
import dev.dra.sidecar.model.NetworkDeviceData;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The sample tree that quarkus:dev serves decodes, validates, is in the writer's format and has its shapes. */
class DeploySampleTreeTest {

    static final Path ROOT = Path.of("deploy", "sample", "dra-device-attributes");
    static final ObjectMapper JSON = new ObjectMapper();
    /** Go's json.MarshalIndent(obj, "", "  "): two-space indent, "key": value, no space before ':'. */
    static final DefaultPrettyPrinter GO_INDENT = new DefaultPrettyPrinter(Separators.createDefaultInstance()
            .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n"));

    /** Relative path (with '/') -> decoded file. */
    static final Map<String, DecodedMetadata> FILES = new TreeMap<>();

    @BeforeAll
    static void decodeAll() throws Exception {
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                String relative = ROOT.relativize(file).toString().replace('\\', '/');
                FILES.put(relative, MetadataStreamDecoder.decode(Files.readAllBytes(file), file.toString()));
            }
        }
    }

    @Test
    void everyFileDecodesAsV1beta1AndValidates() {
        assertEquals(4, FILES.size(), FILES.keySet().toString());
        FILES.forEach((path, decoded) -> {
            assertTrue(path.endsWith("-metadata.json"), path + ": only metadata files belong in the tree");
            assertEquals(DeviceMetadata.V1BETA1, decoded.sourceVersion(), path);
            assertEquals(List.of(), decoded.skippedVersions(), path);
            assertEquals(List.of(), MetadataValidator.validate(decoded.object()), path + ": validation");
        });
    }

    @Test
    void everyFileIsTheWritersStreamV1beta1ThenTheSameAsV1alpha1() throws IOException {
        for (String path : FILES.keySet()) {
            String text = Files.readString(ROOT.resolve(path), StandardCharsets.UTF_8);
            List<JsonNode> objects = new ArrayList<>();
            try (var values = JSON.readerFor(JsonNode.class).<JsonNode>readValues(text)) {
                values.forEachRemaining(objects::add);
            }
            assertEquals(2, objects.size(), path);
            assertEquals(DeviceMetadata.V1BETA1, objects.get(0).get("apiVersion").asText(), path);
            assertEquals(DeviceMetadata.V1ALPHA1, objects.get(1).get("apiVersion").asText(), path);
            ObjectNode beta = objects.get(0).deepCopy();
            ObjectNode alpha = objects.get(1).deepCopy();
            beta.remove("apiVersion");
            alpha.remove("apiVersion");
            assertEquals(beta, alpha, path + ": both objects carry the same metadata");

            StringBuilder expected = new StringBuilder();
            for (JsonNode object : objects) {
                expected.append(JSON.writer(GO_INDENT).writeValueAsString(object)).append('\n');
            }
            assertEquals(expected.toString(), text, path + ": the Go writer's bytes (2-space indent, '\\n' after each)");
            List<String> keys = new ArrayList<>();
            objects.get(0).fieldNames().forEachRemaining(keys::add);
            assertEquals("kind", keys.get(0), path + ": Go emits kind first");
            assertEquals("apiVersion", keys.get(1), path);
        }
    }

    @Test
    void everyFileMatchesItsPath() {
        FILES.forEach((path, decoded) -> {
            String[] parts = path.split("/");
            assertEquals(4, parts.length, path);
            DeviceMetadata object = decoded.object();
            String driver = parts[3].substring(0, parts[3].length() - "-metadata.json".length());
            assertNotNull(object.metadata(), path);
            assertNotNull(object.metadata().uid(), path);
            assertTrue(object.metadata().generation() >= 1, path);
            if (parts[0].equals("resourceclaims")) {
                assertEquals(parts[1], object.metadata().name(), path + ": directory = claim name");
                assertNull(object.podClaimName(), path + ": only template claims have podClaimName");
            } else {
                assertEquals("resourceclaimtemplates", parts[0], path);
                assertEquals(parts[1], object.podClaimName(), path + ": directory = podClaimName");
                assertFalse(parts[1].equals(object.metadata().name()), path + ": a generated claim has its own name");
            }
            assertEquals(1, object.requests().size(), path + ": the framework writes one request per file");
            assertTrue(object.requests().get(0).belongsTo(parts[2]), path + ": request name");
            for (Device device : object.requests().get(0).devices()) {
                assertEquals(driver, device.driver(), path + ": file name = driver");
                assertNotNull(device.attributes(), path);
                assertEquals(List.copyOf(new TreeMap<>(device.attributes()).keySet()),
                        List.copyOf(device.attributes().keySet()), path + ": attribute keys sorted");
            }
        });
    }

    @Test
    void directClaimHasTwoDriversInOneRequest() {
        List<String> drivers = FILES.keySet().stream().filter(p -> p.startsWith("resourceclaims/gpu-claim/gpu/"))
                .toList();
        assertEquals(List.of("resourceclaims/gpu-claim/gpu/gpu.example.com-metadata.json",
                "resourceclaims/gpu-claim/gpu/nic.example.com-metadata.json"), drivers);
        DeviceMetadataRequest gpus = FILES.get(drivers.get(0)).object().requests().get(0);
        assertEquals(2, gpus.devices().size(), "two GPUs");
        for (Device gpu : gpus.devices()) {
            assertTrue(gpu.attributes().keySet().containsAll(Set.of("model", "uuid", "index", "driverVersion",
                    "resource.kubernetes.io/pciBusID")), gpu.name() + ": " + gpu.attributes().keySet());
            assertNotNull(gpu.attributes().get("index").intValue());
            assertNotNull(gpu.attributes().get("driverVersion").versionValue());
        }
        assertEquals(2, gpus.devices().stream().map(d -> d.attributes().get("uuid").stringValue()).distinct().count());
        Device nic = FILES.get(drivers.get(1)).object().requests().get(0).devices().get(0);
        assertEquals("nic.example.com", nic.driver());
        assertEquals(Boolean.TRUE, nic.attributes().get("rdma").boolValue());
        // Both files describe the same claim, so the merged object can keep name/namespace/uid.
        var a = FILES.get(drivers.get(0)).object().metadata();
        var b = FILES.get(drivers.get(1)).object().metadata();
        assertEquals(List.of(a.name(), a.namespace(), a.uid()), List.of(b.name(), b.namespace(), b.uid()));
    }

    @Test
    void templateClaimCarriesPodClaimName() {
        DeviceMetadata object = FILES.get("resourceclaimtemplates/my-gpu/gpu/gpu.example.com-metadata.json").object();
        assertEquals("my-gpu", object.podClaimName());
        assertTrue(object.metadata().name().contains("-my-gpu-"), "generated claim name <pod>-<pod claim>-<suffix>");
    }

    @Test
    void networkDeviceHasNetworkDataAndIsAnUpdate() throws Exception {
        DeviceMetadata object = FILES.get("resourceclaims/net-claim/nic/dranet.example.com-metadata.json").object();
        assertEquals(2L, object.metadata().generation(), "network data arrives with an update: generation 2");
        NetworkDeviceData net = object.requests().get(0).devices().get(0).networkData();
        assertNotNull(net);
        assertNotNull(net.interfaceName());
        assertTrue(net.hardwareAddress().matches("([0-9a-f]{2}:){5}[0-9a-f]{2}"), net.hardwareAddress());
        assertFalse(net.ips().isEmpty());
        for (String cidr : net.ips()) {
            String[] parts = cidr.split("/");
            assertEquals(2, parts.length, cidr + " is in CIDR notation");
            InetAddress address = InetAddress.getByName(parts[0]); // literal addresses only: no lookup happens
            int bits = Integer.parseInt(parts[1]);
            assertTrue(bits >= 0 && bits <= address.getAddress().length * 8, cidr);
        }
        assertEquals(net.ips().size(), Set.copyOf(net.ips()).size(), "ips are unique");
    }

    @Test
    void treeSatisfiesTheBaseDeploymentsExpectedClaims() throws IOException {
        String deployment = Files.readString(Path.of("deploy/kubernetes/base/deployment.yaml"));
        var m = java.util.regex.Pattern.compile("value: ((?:claims|template-claims)/\\S+)").matcher(deployment);
        assertTrue(m.find(), "expected claims in the base deployment");
        Set<String> entries = Set.of(m.group(1).split(","));
        Set<String> dirs = FILES.keySet().stream().map(p -> p.substring(0, p.lastIndexOf('/')))
                .map(p -> p.replaceFirst("^resourceclaims/", "claims/")
                        .replaceFirst("^resourceclaimtemplates/", "template-claims/"))
                .collect(Collectors.toSet());
        assertTrue(dirs.containsAll(entries), "quarkus:dev with the sample tree is ready for " + entries);
    }
}
