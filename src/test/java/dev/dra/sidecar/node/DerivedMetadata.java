package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.GoOracle;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * The resource API as the metadata source of a claim whose driver writes no file ({@value KubeNode#ATTRIBUTE_DRIVER}),
 * on the real node: what the API server holds for the claim's devices, read as {@code kubectl get -o json} shows it
 * (the claim's allocation results and {@code status.devices}, the pool's ResourceSlices), and the app container's
 * calls of the metadata API ({@code curl -i} in the container, {@link Via}: its sidecar, or node mode's agent with
 * the pod's token). The checks that both ways share are in {@link DerivedChecks}.
 */
final class DerivedMetadata {

    static final String DRIVER = KubeNode.ATTRIBUTE_DRIVER;
    static final Duration CHANGE = Duration.ofSeconds(30);
    /** The client of {@link #waitingLongPolls}: one for every read, so that they share its connection. */
    private static final HttpClient SCRAPES = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final ResourceDefinitionContext CLAIMS = new ResourceDefinitionContext.Builder()
            .withGroup("resource.k8s.io").withVersion("v1").withKind("ResourceClaim").withPlural("resourceclaims")
            .withNamespaced(true).build();

    /** Where an app container finds the metadata API. */
    enum Via {
        /** The pod's sidecar, on loopback. */
        SIDECAR("localhost:8089", ""),
        /** Node mode's agent, at {@code $DRA_METADATA_URL}, with the pod's token for it. */
        AGENT("$DRA_METADATA_URL", "-H \"Authorization: Bearer $(cat " + NodeAgent.TOKEN + ")\" ");

        private final String base;
        private final String auth;

        Via(String base, String auth) {
            this.base = base;
            this.auth = auth;
        }

        /** A shell command that prints the whole HTTP answer to {@code route} ({@code curl -s -i}, with {@code more}). */
        String curl(String route, String more) {
            return "curl -s -i " + auth + more + " \"" + base + route + "\"";
        }
    }

    /** One answer as {@code curl -i} printed it: the status, the headers (names in lower case) and the body. */
    record Answer(int status, Map<String, String> headers, String body) {

        static Answer parse(String printed) {
            int end = printed.indexOf("\r\n\r\n");
            assertTrue(end > 0, "an HTTP answer: " + printed);
            String[] lines = printed.substring(0, end).split("\r\n");
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).strip());
            }
            return new Answer(Integer.parseInt(lines[0].split(" ")[1]), headers, printed.substring(end + 4));
        }

        /** The header {@code name}, or null. */
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        JsonNode json() {
            try {
                return GoOracle.JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public String toString() {
            return status + " " + headers + " " + body;
        }
    }

    private final KubeNodeExtension node;
    final Via via;

    DerivedMetadata(KubeNodeExtension node, Via via) {
        this.node = node;
        this.via = via;
    }

    /** The app container's answer to {@code route}, asked from inside it. */
    Answer ask(Pod pod, String route) {
        return run(pod, via.curl(route, ""));
    }

    /** {@link #ask}, with {@code curl}'s options {@code more} (such as a header). */
    Answer ask(Pod pod, String route, String more) {
        return run(pod, via.curl(route, more));
    }

    /** {@link #ask} once {@code done} holds for the answer, within {@link #CHANGE}. */
    Answer awaitAnswer(Pod pod, String route, Predicate<Answer> done, String what) {
        return Eventually.await(CHANGE, () -> ask(pod, route), done, what);
    }

    /** A long poll from the app container on {@code route} that waits for an ETag other than {@code etag}. */
    CompletableFuture<Answer> longPoll(Pod pod, String route, String etag) {
        String more = "--get --data waitForChange=true --data timeoutSeconds=60 --data-urlencode 'lastEtag=" + etag + "'";
        return CompletableFuture.supplyAsync(() -> run(pod, via.curl(route, more)));
    }

    private Answer run(Pod pod, String command) {
        try {
            return Answer.parse(node.pods().exec(pod, AppPods.APP, "sh", "-c", command));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The claim as the API server has it now ({@code kubectl get resourceclaim -o json}). */
    JsonNode claim(String namespace, String name) {
        return json(node.client().raw("/apis/resource.k8s.io/v1/namespaces/" + namespace + "/resourceclaims/" + name));
    }

    /** Every ResourceSlice as the API server has it now ({@code kubectl get resourceslices -o json}). */
    JsonNode slices() {
        return json(node.client().raw("/apis/resource.k8s.io/v1/resourceslices"));
    }

    /**
     * What the resource API says of {@code request}'s devices of {@code driver}, in allocation order: driver, pool and
     * name from the claim's allocation results, the device's attributes as the newest generation of its pool's
     * ResourceSlices lists them, and its {@code networkData} from the claim's {@code status.devices}.
     */
    ArrayNode devices(JsonNode claim, String request, String driver) {
        JsonNode slices = slices();
        ArrayNode devices = GoOracle.JSON.createArrayNode();
        for (JsonNode result : claim.at("/status/allocation/devices/results")) {
            if (!result.path("driver").asText().equals(driver)
                    || !result.path("request").asText().split("/")[0].equals(request)) {
                continue;
            }
            ObjectNode device = devices.addObject();
            device.put("driver", driver).put("pool", result.path("pool").asText())
                    .put("name", result.path("device").asText());
            JsonNode attributes = attributes(slices, driver, result.path("pool").asText(), result.path("device").asText());
            if (attributes != null) {
                device.set("attributes", attributes);
            }
            for (JsonNode status : claim.at("/status/devices")) {
                if (status.path("driver").asText().equals(driver) && status.path("pool").equals(result.path("pool"))
                        && status.path("device").equals(result.path("device")) && status.has("networkData")) {
                    device.set("networkData", status.get("networkData"));
                }
            }
        }
        return devices;
    }

    private static JsonNode attributes(JsonNode slices, String driver, String pool, String name) {
        long newest = -1;
        JsonNode found = null;
        for (JsonNode slice : slices.path("items")) {
            JsonNode spec = slice.path("spec");
            if (!spec.path("driver").asText().equals(driver) || !spec.at("/pool/name").asText().equals(pool)
                    || spec.at("/pool/generation").asLong() < newest) {
                continue;
            }
            for (JsonNode device : spec.path("devices")) {
                if (device.path("name").asText().equals(name)) {
                    newest = spec.at("/pool/generation").asLong();
                    found = device.get("attributes");
                }
            }
        }
        return found;
    }

    /**
     * The devices of the metadata file {@value KubeNode#ATTRIBUTE_FILE_DRIVER} wrote on the host for the claim's
     * request, as the Go reader decodes it.
     */
    JsonNode fileDevices(String namespace, String claim, String request) throws Exception {
        Path file = Path.of(node.node().env.get("attribute_file_driver_plugin_dir"),
                "dra-device-metadata", namespace + "_" + claim, request, "metadata.json");
        return node.goReader().decode(file).at("/requests/0/devices");
    }

    /** Writes {@code devices} (JSON objects of {@code status.devices}) into the claim's status, as dranet does. */
    @SuppressWarnings("unchecked")
    void writeDeviceStatus(String namespace, String claim, JsonNode devices) {
        var claims = node.client().genericKubernetesResources(CLAIMS).inNamespace(namespace);
        GenericKubernetesResource current = claims.withName(claim).get();
        Map<String, Object> status = (Map<String, Object>) current.getAdditionalProperties().get("status");
        status.put("devices", GoOracle.JSON.convertValue(devices, List.class));
        claims.resource(current).updateStatus();
    }

    /**
     * The long polls waiting now in a service, from its metrics at {@code metrics} ({@code dra_long_poll_waiters}),
     * read as Prometheus scrapes them: HTTP/1.1, over the one connection {@link #SCRAPES} keeps. A new client for
     * each read, polled every few milliseconds, held a new connection each until the management interface's limit
     * on connections refused the next.
     */
    static long waitingLongPolls(URI metrics) {
        try {
            String text = SCRAPES.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(5))
                    .build(), HttpResponse.BodyHandlers.ofString()).body();
            return text.lines().filter(l -> l.startsWith("dra_long_poll_waiters ")).mapToLong(l -> (long) Double
                    .parseDouble(l.substring(l.lastIndexOf(' ') + 1))).findFirst().orElse(-1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Replaces the attribute driver's devices file by rename (written beside it, then renamed over it), every device's
     * {@code memory} {@code delta} up, so that the driver publishes its pool's next generation; returns the new
     * memory of {@code device}.
     */
    long republishWithMoreMemory(String device, long delta) throws IOException {
        Path file = Path.of(node.node().env.get("attribute_driver_devices"));
        ArrayNode devices = (ArrayNode) GoOracle.JSON.readTree(Files.readAllBytes(file));
        long memory = -1;
        for (JsonNode entry : devices) {
            ObjectNode value = (ObjectNode) entry.at("/attributes/memory");
            value.put("int", value.get("int").asLong() + delta);
            if (entry.path("name").asText().equals(device)) {
                memory = value.get("int").asLong();
            }
        }
        Path next = file.resolveSibling(file.getFileName() + ".next");
        Files.write(next, GoOracle.JSON.writeValueAsBytes(devices));
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        assertTrue(memory > 0, "no device " + device + " in " + file);
        return memory;
    }

    private static JsonNode json(String text) {
        try {
            return GoOracle.JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Fails unless {@code answer} is a 200 marked as coming from {@code source}. */
    static void assertSource(Answer answer, String source, String what) {
        assertEquals(200, answer.status(), what + ": " + answer);
        assertEquals(source, answer.header("Metadata-Source"), what + ": " + answer);
    }
}
