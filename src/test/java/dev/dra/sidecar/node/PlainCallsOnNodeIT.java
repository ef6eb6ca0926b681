package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dra.sidecar.testsupport.GoOracle;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The README's recipes for images with {@code curl} and {@code sh} only, run by the app container of a pod that
 * deploy/kubernetes/injection gave the sidecar: busybox's {@code sh} and curl, no Python. The upstream test driver
 * writes no {@code uuid}, {@code pciBusID}, model or {@code networkData}, so the test adds them as a driver on the
 * v0.36 helper does: it rewrites the driver's files on the host in place (same inode, truncate and write), while
 * the app waits for that change with a long poll. Then {@code CUDA_VISIBLE_DEVICES} is the UUIDs the Go reader
 * decodes from the driver's file, in its order (two devices, whose UUIDs sort the other way round), and the values
 * the env route sets in the shell are the JSON route's.
 */
class PlainCallsOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    private static final Pattern SH_EXAMPLE = Pattern.compile("```sh example\\n(.*?)```", Pattern.DOTALL);
    private static final String GPU = "localhost:8089/claims/gpu-claim/gpu";
    private static final String NIC = "localhost:8089/claims/net-claim/nic";
    /**
     * Takes both ETags, says so, then long-polls each request until its ETag differs (in turn: a change that came
     * before its poll is answered at once), printing each new one.
     */
    private static final String WAIT_FOR_THE_DRIVER = """
            g=$(curl -fsS -o /dev/null -w '%%header{etag}' %1$s)
            n=$(curl -fsS -o /dev/null -w '%%header{etag}' %2$s)
            echo "waiting $g $n"
            for r in "%1$s $g" "%2$s $n"; do
              set -- $r
              curl -fsS -o /dev/null -w 'changed %%header{etag}\\n' --get "$1" --data waitForChange=true \\
                --data timeoutSeconds=120 --data-urlencode "lastEtag=$2"
            done
            exec sleep 3600""".formatted(GPU, NIC);
    private static String namespace;
    private static Pod pod;
    private static List<String> waiting;
    private static List<String> changed;

    @BeforeAll
    static void startThePodAndRewriteTheDriversFiles() throws Exception {
        NODE.pods().applyInjection();
        namespace = NODE.restrictedNamespace("plain-calls", AppPods.optIn());
        NODE.create(namespace, ClaimManifests.all(ClaimManifests.claim("gpu-claim", "gpu", 2),
                ClaimManifests.claim("net-claim", "nic")));
        Pod app = NODE.pods().app(namespace, "plain-calls", List.of("/bin/sh", "-eu", "-c", WAIT_FOR_THE_DRIVER),
                AppPods.claim("gpu-claim", "gpu-claim"), AppPods.claim("net-claim", "net-claim"));
        Pod created = NODE.pods().createInjected(app);
        assertEquals(AppPods.SIDECAR, created.getSpec().getInitContainers().get(0).getName(), "the sidecar injected");
        pod = NODE.pods().awaitAppRunning(created);
        waiting = List.of(NODE.pods().awaitLog(pod, AppPods.APP, 1).get(0).text().split(" "));
        assertEquals("waiting", waiting.get(0), "the app took both ETags: " + waiting);

        rewriteInPlace(NODE.pods().hostFile(namespace, "gpu-claim", "gpu"), devices -> {
            for (int i = 0; i < devices.size(); i++) {
                ObjectNode attributes = (ObjectNode) devices.get(i).get("attributes");
                attributes.putObject("uuid").put("string", "GPU-%08x-0b3d-4f58-a9e6-c1d2e3f40516".formatted(0xf0000000L - i));
                attributes.putObject("resource.kubernetes.io/pciBusID").put("string", "0000:%02x:00.0".formatted(0x86 - i));
                attributes.putObject("model").put("string", "Example 'H100' $(id) `id` 80GB;x=1");
            }
        });
        rewriteInPlace(NODE.pods().hostFile(namespace, "net-claim", "nic"),
                devices -> devices.forEach(d -> ((ObjectNode) d).putObject("networkData").put("interfaceName", "net1")));
        changed = NODE.pods().awaitLog(pod, AppPods.APP, 3).stream().skip(1).map(TimedLine::text).toList();
    }

    /**
     * Every object of the file's stream (one per API version) with {@code edit} applied to each request's devices
     * and the generation one up, written back into the same inode: truncate, then one write.
     */
    private static void rewriteInPlace(Path file, Consumer<List<JsonNode>> edit) throws Exception {
        Object inode = Files.getAttribute(file, "unix:ino");
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        try (MappingIterator<JsonNode> objects = GoOracle.JSON.readerFor(JsonNode.class).readValues(Files.readAllBytes(file))) {
            while (objects.hasNext()) {
                ObjectNode object = (ObjectNode) objects.next();
                ObjectNode metadata = (ObjectNode) object.get("metadata");
                metadata.put("generation", metadata.path("generation").asLong() + 1);
                for (JsonNode request : object.get("requests")) {
                    List<JsonNode> devices = new ArrayList<>();
                    request.get("devices").forEach(devices::add);
                    edit.accept(devices);
                }
                stream.write(GoOracle.JSON.writeValueAsBytes(object));
                stream.write('\n');
            }
        }
        Files.write(file, stream.toByteArray(), StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        assertEquals(inode, Files.getAttribute(file, "unix:ino"), "rewritten in place: " + file);
    }

    /** The devices of the request as the Go reader decodes the driver's file on the host now. */
    private static JsonNode goDevices(String claim, String request) throws Exception {
        return NODE.goReader().decode(NODE.pods().hostFile(namespace, claim, request)).at("/requests/0/devices");
    }

    private static List<String> values(JsonNode devices, String pointer) {
        List<String> values = new ArrayList<>();
        devices.forEach(d -> values.add(d.at(pointer).asText()));
        return values;
    }

    /** docs/api.md's rule for one part of an env name, for the ASCII names the driver gives its devices. */
    private static String envPart(String name) {
        return name.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }

    /** The README's {@code sh example} blocks, with the sample tree's names replaced by the node's. */
    private static List<String> recipes(String driver, String firstDevice) throws Exception {
        Matcher m = SH_EXAMPLE.matcher(Files.readString(Path.of("README.md")));
        List<String> blocks = new ArrayList<>();
        while (m.find()) {
            blocks.add(m.group(1));
        }
        assertEquals(2, blocks.size(), "the README's two sh recipe blocks");
        assertTrue(blocks.get(0).contains("?driver=gpu.example.com"), blocks.get(0));
        assertTrue(blocks.get(1).contains("_GPU_0_"), blocks.get(1));
        return List.of(blocks.get(0).replace("?driver=gpu.example.com", "?driver=" + driver),
                blocks.get(1).replace("_GPU_0_", "_" + envPart(firstDevice) + "_"));
    }

    @Test
    void theAppsLongPollsSawTheRewritesInPlace() {
        assertEquals(2, changed.size(), "one change line per request: " + changed);
        for (int i = 0; i < 2; i++) {
            assertTrue(changed.get(i).startsWith("changed \""), changed.get(i));
            assertNotEquals("changed " + waiting.get(i + 1), changed.get(i),
                    "the long poll ended on a new ETag, not its timeout");
        }
    }

    @Test
    void theReadmesRecipesInTheAppsShGiveWhatTheGoReaderDecodesFromTheDriversFiles() throws Exception {
        String driver = NODE.node().env.get("driver");
        JsonNode gpus = goDevices("gpu-claim", "gpu");
        assertEquals(2, gpus.size(), "the request's two devices: " + gpus);
        List<String> uuids = values(gpus, "/attributes/uuid/string");
        assertNotEquals(uuids.stream().sorted().toList(), uuids, "serving order is not the UUIDs' sorted order");
        List<String> recipes = recipes(driver, gpus.get(0).get("name").asText());

        assertEquals("CUDA_VISIBLE_DEVICES=" + String.join(",", uuids) + "\n"
                + values(gpus, "/attributes/resource.kubernetes.io~1pciBusID/string").stream()
                        .map(id -> id + "\n").collect(Collectors.joining()),
                NODE.pods().exec(pod, AppPods.APP, "sh", "-eu", "-c", recipes.get(0)),
                "CUDA_VISIBLE_DEVICES and the PCI bus IDs, in the order of the driver's file");

        JsonNode served = GoOracle.JSON.readTree(NODE.pods().exec(pod, AppPods.APP, "curl", "-fsS", GPU))
                .at("/requests/0/devices/0/attributes");
        assertEquals(gpus.get(0).get("attributes"), served, "the JSON route's first device, as Go decodes it");
        assertEquals("NCCL_SOCKET_IFNAME=" + String.join(",", values(goDevices("net-claim", "nic"),
                "/networkData/interfaceName")) + "\n"
                + "gpu-0: " + served.at("/model/string").asText() + " at "
                + served.at("/resource.kubernetes.io~1pciBusID/string").asText() + "\n",
                NODE.pods().exec(pod, AppPods.APP, "sh", "-eu", "-c", recipes.get(1)),
                "NCCL_SOCKET_IFNAME from networkData, and two values of the env route as the JSON route has them");
    }
}
