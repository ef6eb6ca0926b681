package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dra.sidecar.testsupport.GoOracle;
import dev.dra.sidecar.testsupport.Kustomize;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * deploy/kubernetes/base as shipped (but for the images, imported into the node, and their pull policy) on the real
 * node, in a namespace that enforces Restricted: kubelet starts the sidecar as a native sidecar, containerd mounts
 * the files the upstream DRA test driver wrote (through the driver's CDI spec), and the app container reads them
 * from the sidecar. Every answer the app gets is compared with what the Go reader (src/test/go/oracle) decodes from
 * the driver's file on the host.
 */
class BaseDeploymentOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    private static String namespace;
    private static Pod pod;

    @BeforeAll
    static void deployTheBase() throws Exception {
        namespace = NODE.restrictedNamespace("base", Map.of());
        NODE.pods().create(namespace, NODE.load(Kustomize.render(AppPods.BASE)));
        long created = System.nanoTime();
        pod = NODE.pods().awaitAppRunning(namespace);
        System.err.printf("[node] base Deployment: its pod's app container running %d ms after the objects were created%n",
                (System.nanoTime() - created) / 1_000_000);
    }

    /** The Go reader's object for the driver's file of {@code claim}'s {@code request} on the host. */
    private static JsonNode goDecode(String claim, String request) throws Exception {
        Path file = NODE.pods().hostFile(namespace, claim, request);
        assertTrue(Files.isRegularFile(file), "the driver's metadata file on the host: " + file);
        return NODE.goReader().decode(file);
    }

    @Test
    void theAppsCurlLoopGetsWhatTheGoReaderDecodesFromTheDriversFiles() throws Exception {
        List<TimedLine> lines = NODE.pods().awaitLog(pod, AppPods.APP, 2);
        String template = AppPods.generatedClaim(pod, "my-gpu");
        assertEquals(GoReader.withoutGeneration(goDecode("gpu-claim", "gpu")), NODE.goReader().asGoSeesIt(lines.get(0).text()),
                "curl .../claims/gpu-claim/gpu in the app container");
        assertEquals(GoReader.withoutGeneration(goDecode(template, "gpu")), NODE.goReader().asGoSeesIt(lines.get(1).text()),
                "curl .../template-claims/my-gpu/gpu in the app container (claim " + template + ")");
    }

    @Test
    void theReadmesPythonAndCurlExamplesRunInTheAppContainer() throws Exception {
        String python = """
                import json, urllib.request

                with urllib.request.urlopen("http://localhost:8089/claims/gpu-claim/gpu") as response:
                    metadata = json.load(response)
                for device in metadata["requests"][0]["devices"]:
                    print(device["driver"], device["name"], device.get("attributes", {}).get("uuid", {}).get("string", "-"))
                """;
        assertTrue(Files.readString(Path.of("README.md")).contains(python.strip()), "the README's Python example");
        StringBuilder expected = new StringBuilder();
        for (JsonNode device : goDecode("gpu-claim", "gpu").at("/requests/0/devices")) {
            expected.append(device.get("driver").asText()).append(' ').append(device.get("name").asText()).append(' ')
                    .append(device.at("/attributes/uuid/string").asText("-")).append('\n');
        }
        assertEquals(expected.toString(), NODE.pods().exec(pod, AppPods.APP, "python3", "-c", python), "the README's Python");

        assertEquals("{\"claims\":[{\"name\":\"gpu-claim\",\"requests\":[\"gpu\"]}],\"devices\":\"/devices\"}\n",
                NODE.pods().exec(pod, AppPods.APP, "curl", "-s", "localhost:8089/claims"),
                "curl -s localhost:8089/claims: the directly named claim (template claims are listed apart)");
        String driver = NODE.node().env.get("driver");
        String template = AppPods.generatedClaim(pod, "my-gpu");
        assertEquals(goDecode(template, "gpu"), NODE.goReader().asGoSeesIt(NODE.pods().exec(pod, AppPods.APP, "curl", "-s",
                "localhost:8089/template-claims/my-gpu/gpu/drivers/" + driver)),
                "one driver's view is its file as Go decodes it, generation included");
    }

    /**
     * README's attribute examples ({@code .../attributes/uuid} as text, {@code .../attributes/resource.kubernetes.io/pciBusID}
     * as JSON) name attributes the upstream test driver never writes (its metadata has driverName, pool and device
     * only): the same two routes, in the app container, for each attribute the driver wrote on the first device.
     */
    @Test
    void theReadmesAttributeRoutesAnswerWithTheAttributesTheDriverWrote() throws Exception {
        JsonNode device = goDecode("gpu-claim", "gpu").at("/requests/0/devices/0");
        String route = "localhost:8089/claims/gpu-claim/gpu/devices/" + device.get("name").asText() + "/attributes/";
        List<String> names = new java.util.ArrayList<>();
        device.get("attributes").fieldNames().forEachRemaining(names::add);
        assertEquals(List.of("device", "driverName", "pool"), names.stream().sorted().toList(),
                "the attributes the upstream test driver writes");
        for (String name : names) {
            JsonNode value = device.at("/attributes/" + name);
            assertEquals(value, GoOracle.JSON.readTree(NODE.pods().exec(pod, AppPods.APP, "curl", "-s", route + name)),
                    "curl -s " + route + name);
            assertEquals(value.get("string").asText(), NODE.pods().exec(pod, AppPods.APP, "curl", "-s", "-H",
                    "Accept: text/plain", route + name).strip(), "curl -s -H 'Accept: text/plain' " + route + name);
        }
    }

    @Test
    void theAppContainerIsCreatedOnlyAfterTheSidecarStarted() throws Exception {
        Pod now = NODE.pods().get(pod);
        Instant sidecarStarted = NODE.pods().log(now, AppPods.SIDECAR).stream()
                .filter(line -> line.text().contains("started in")).findFirst().orElseThrow().time();
        Instant appCreated = NODE.pods().createdInContainerd(AppPods.status(now, AppPods.APP));
        assertTrue(appCreated.isAfter(sidecarStarted), "containerd created the app container at " + appCreated
                + ", after the sidecar logged that it started at " + sidecarStarted);
        assertEquals(Boolean.TRUE, AppPods.status(now, AppPods.SIDECAR).getStarted(), "kubelet: sidecar started");
        System.err.printf("[node] app container created %d ms after the sidecar's \"started in\" line%n",
                java.time.Duration.between(sidecarStarted, appCreated).toMillis());
    }
}
