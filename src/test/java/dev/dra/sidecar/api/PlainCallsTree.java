package dev.dra.sidecar.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.store.MetadataStore;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.MetadataFiles;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A metadata root for the plain calls (an attribute across devices, {@code /devices}, the environment route): a
 * request with two GPUs and a NIC of another driver that lacks their attributes, a template claim, two drivers
 * naming one device alike, and a claim whose values are hostile to a shell ({@link #HOSTILE}).
 */
public class PlainCallsTree implements QuarkusTestProfile {

    static final Path ROOT = create();

    /** Each hostile string value, by attribute name, of device {@code evil-0} of claim {@code hostile}. */
    static final Map<String, String> HOSTILE = hostile();

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("dra.metadata.root", ROOT.toString());
    }

    static Path file(ClaimKind kind, String claim, String driver) {
        return MetadataFiles.file(ROOT, kind, claim, "gpu", driver);
    }

    private static Map<String, String> hostile() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("quote", "it's a 'quoted' \"value\"");
        values.put("subst", "$(touch /tmp/dra-pwned-subst) ${HOME} $HOME");
        values.put("backtick", "`touch /tmp/dra-pwned-backtick`");
        values.put("newline", "line1\nDRA_INJECTED=1\ntouch /tmp/dra-pwned-newline\n");
        values.put("equals", "A=B; DRA_INJECTED=2; export DRA_INJECTED");
        values.put("closequote", "'; DRA_INJECTED=3; touch /tmp/dra-pwned-close; '");
        values.put("backslash", "\\' \\\\ \\n \\");
        values.put("nonascii", "GPU-ünï-çødé-日本-\u202e-😀");
        values.put("tab", "a\tb\rc");
        values.put("huge", "x'$(y)`z`\n".repeat(64 * 1024 / 10) + "end");
        values.put("empty", "");
        values.put("resource.kubernetes.io/pciBusID", "0000:00:01.0'");
        return values;
    }

    private static Path create() {
        try {
            Path root = Files.createTempDirectory("dra-plain-calls");
            ObjectMapper json = new ObjectMapper();
            write(json, root, ClaimKind.CLAIM, "gpu-claim", "gpu.example.com",
                    device(json, "gpu.example.com", "gpu-0", Map.of("uuid", str("GPU-aaaa"), "numaNode", num(0),
                            "resource.kubernetes.io/pciBusID", str("0000:3b:00.0"), "cores", ints(1, 2))),
                    device(json, "gpu.example.com", "gpu-1", Map.of("uuid", str("GPU-bbbb"), "numaNode", num(1),
                            "resource.kubernetes.io/pciBusID", str("0000:86:00.0"), "cores", ints(3))));
            ObjectNode nic = device(json, "nic.example.com", "rdma-0", Map.of("numaNode", num(0)));
            nic.putObject("networkData").put("interfaceName", "eth1").put("hardwareAddress", "02:00:00:00:00:01")
                    .putArray("ips").add("192.0.2.10/24").add("2001:db8::a/64");
            write(json, root, ClaimKind.CLAIM, "gpu-claim", "nic.example.com", nic);
            write(json, root, ClaimKind.TEMPLATE_CLAIM, "my-gpu", "gpu.example.com",
                    device(json, "gpu.example.com", "gpu-0", Map.of("uuid", str("GPU-cccc"), "numaNode", num(0))));
            write(json, root, ClaimKind.CLAIM, "twins", "a.example.com",
                    device(json, "a.example.com", "gpu-0", Map.of("model", str("A"))));
            write(json, root, ClaimKind.CLAIM, "twins", "b.example.com",
                    device(json, "b.example.com", "gpu-0", Map.of("model", str("B"))));
            Map<String, Object> evil = new LinkedHashMap<>();
            hostile().forEach((name, value) -> evil.put(name, str(value)));
            evil.put("many", Map.of("strings", java.util.List.of("a'b", "$(c)", "d,e")));
            write(json, root, ClaimKind.CLAIM, "hostile", "evil.example.com", device(json, "evil.example.com", "evil-0", evil));
            write(json, root, ClaimKind.CLAIM, "nul", "gpu.example.com",
                    device(json, "gpu.example.com", "gpu-0", Map.of("model", str("A\u0000B"))));
            write(json, root, ClaimKind.CLAIM, "changing", "gpu.example.com",
                    device(json, "gpu.example.com", "gpu-0", Map.of("uuid", str("GPU-0"))));
            return root;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, Object> str(String value) {
        return Map.of("string", value);
    }

    static Map<String, Object> num(long value) {
        return Map.of("int", value);
    }

    static Map<String, Object> ints(long... values) {
        return Map.of("ints", java.util.Arrays.stream(values).boxed().toList());
    }

    static ObjectNode device(ObjectMapper json, String driver, String name, Map<String, ?> attributes) {
        ObjectNode device = json.createObjectNode().put("driver", driver).put("pool", "p").put("name", name);
        device.set("attributes", json.valueToTree(new java.util.TreeMap<>(attributes)));
        return device;
    }

    /** Writes the file of {@code driver} for request {@code gpu} of {@code claim} with {@code devices}. */
    static void write(ObjectMapper json, Path root, ClaimKind kind, String claim, String driver, ObjectNode... devices)
            throws Exception {
        MetadataFiles.create(MetadataFiles.file(root, kind, claim, "gpu", driver),
                json.writeValueAsString(object(json, claim, devices)) + "\n");
    }

    /** A DeviceMetadata object of {@code claim} whose request {@code gpu} has {@code devices}. */
    static ObjectNode object(ObjectMapper json, String claim, ObjectNode... devices) {
        ObjectNode object = json.createObjectNode().put("kind", "DeviceMetadata")
                .put("apiVersion", "metadata.resource.k8s.io/v1beta1");
        object.putObject("metadata").put("name", claim).put("namespace", "default").put("uid", "uid-" + claim);
        ArrayNode list = object.putArray("requests").addObject().put("name", "gpu").putArray("devices");
        for (ObjectNode device : devices) {
            list.add(device);
        }
        return object;
    }

    /** Returns once a long poll waits in the store of the application under test. */
    static void waitUntilWaiting() {
        Eventually.await(Duration.ofSeconds(20),
                () -> Arc.container().instance(MetadataStore.class).get().waiting(), n -> n > 0, "a long poll waiting");
    }
}
