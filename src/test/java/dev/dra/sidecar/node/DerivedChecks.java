package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dra.sidecar.node.DerivedMetadata.Answer;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.GoOracle;
import io.fabric8.kubernetes.api.model.Pod;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * What an app container gets for claims of {@value KubeNode#ATTRIBUTE_DRIVER}, which writes no metadata file, through
 * whichever service serves it ({@link DerivedMetadata.Via}), each check against what the API server holds at that
 * moment: the devices the claim was allocated, with their slices' attributes; {@code networkData} written into the
 * claim's status later; the driver's pool republished with a changed attribute; a request whose devices come from a
 * driver with files and one without; and a claim of a driver with files, served as files.
 */
final class DerivedChecks {

    private static final String RESOURCE_API = "resource-api";
    private final DerivedMetadata api;

    DerivedChecks(DerivedMetadata api) {
        this.api = api;
    }

    /**
     * The pod's answer to {@code route} (a request's metadata) is the claim {@code namespace/claim}'s devices of
     * {@code request} as the resource API has them: its allocation results of the attribute driver, in their order,
     * each with exactly the attributes its ResourceSlice shows; the claim's name, namespace and UID; marked
     * {@code resource-api}, with no decoded apiVersion. Returns the answer.
     */
    Answer assertAsTheClusterHasIt(Pod pod, String route, String namespace, String claim, String request) {
        Answer answer = api.awaitAnswer(pod, route, a -> a.status() == 200, "the derived metadata of " + route);
        DerivedMetadata.assertSource(answer, RESOURCE_API, route);
        assertNull(answer.header("Metadata-Source-Version"), "no file, no apiVersion decoded: " + answer);
        JsonNode served = answer.json();
        JsonNode cluster = api.claim(namespace, claim);
        ArrayNode expected = api.devices(cluster, request, DerivedMetadata.DRIVER);
        assertFalse(expected.isEmpty(), "the claim has devices of " + DerivedMetadata.DRIVER + ": " + cluster);
        assertEquals(expected, served.at("/requests/0/devices"), route + ": every allocated device, with its slice's attributes");
        assertEquals(request, served.at("/requests/0/name").asText(), route);
        assertEquals(1, served.path("requests").size(), route);
        for (String field : List.of("name", "namespace", "uid")) {
            assertEquals(cluster.at("/metadata/" + field), served.at("/metadata/" + field), route + ": metadata." + field);
        }
        return answer;
    }

    /**
     * {@code GET /claims} (or {@code /template-claims}) lists the claim with {@code derived: [request]}, and its
     * validation route names the derived driver with the code {@code derived-metadata}: there is no file to validate.
     */
    void assertListedAsDerived(Pod pod, String kind, String claim, String request) {
        Answer index = api.ask(pod, "/" + kind);
        assertEquals(200, index.status(), index.toString());
        JsonNode entry = null;
        for (JsonNode listed : index.json().path("claims")) {
            if (listed.path("name").asText().equals(claim)) {
                entry = listed;
            }
        }
        assertTrue(entry != null, claim + " listed: " + index);
        assertEquals("[\"" + request + "\"]", entry.path("derived").toString(), index.toString());
        JsonNode validation = api.ask(pod, "/" + kind + "/" + claim + "/" + request + "/validation").json();
        assertFalse(validation.path("valid").asBoolean(true), validation.toString());
        assertEquals(RESOURCE_API, validation.at("/drivers/0/source").asText(), validation.toString());
        assertEquals("derived-metadata", validation.at("/drivers/0/error/code").asText(), validation.toString());
    }

    /**
     * A long poll of the app container waits on {@code route} (the service's {@code dra_long_poll_waiters}, read at
     * {@code metrics}, says so), the test writes {@code networkData} for the request's first device into the claim's
     * {@code status.devices} as a network driver does, and the poll answers with a new ETag and that network data.
     */
    void assertNetworkDataAnswersAWaitingLongPoll(Pod pod, String route, String namespace, String claim, String request,
            URI metrics) throws Exception {
        Answer before = assertAsTheClusterHasIt(pod, route, namespace, claim, request);
        long waitingBefore = DerivedMetadata.waitingLongPolls(metrics);
        CompletableFuture<Answer> poll = api.longPoll(pod, route, before.header("ETag"));
        Eventually.await(DerivedMetadata.CHANGE, () -> DerivedMetadata.waitingLongPolls(metrics),
                n -> n > waitingBefore, "the app's long poll waiting");
        JsonNode device = before.json().at("/requests/0/devices/0");
        ArrayNode status = GoOracle.JSON.createArrayNode();
        ObjectNode entry = status.addObject().put("driver", device.path("driver").asText())
                .put("pool", device.path("pool").asText()).put("device", device.path("name").asText());
        entry.putObject("networkData").put("interfaceName", "net1").put("hardwareAddress", "02:00:c6:12:01:63")
                .putArray("ips").add("192.0.2.7/24");
        api.writeDeviceStatus(namespace, claim, status);

        Answer changed = poll.get(DerivedMetadata.CHANGE.toSeconds(), TimeUnit.SECONDS);
        DerivedMetadata.assertSource(changed, RESOURCE_API, "the long poll's answer");
        assertNotEquals(before.header("ETag"), changed.header("ETag"), "a new ETag");
        assertEquals(entry.get("networkData"), changed.json().at("/requests/0/devices/0/networkData"), changed.toString());
        assertEquals(api.devices(api.claim(namespace, claim), request, DerivedMetadata.DRIVER),
                changed.json().at("/requests/0/devices"), "the devices as the claim's status has them now");
    }

    /**
     * The attribute driver's devices file replaced by rename with every device's {@code memory} up: the driver
     * publishes its pool's next generation, and {@code route} serves it as a change (a new ETag), as the slice
     * shows it.
     */
    void assertARepublishedAttributeIsAChange(Pod pod, String route, String namespace, String claim, String request)
            throws Exception {
        Answer before = assertAsTheClusterHasIt(pod, route, namespace, claim, request);
        String device = before.json().at("/requests/0/devices/0/name").asText();
        long memory = api.republishWithMoreMemory(device, 1024);
        Answer after = api.awaitAnswer(pod, route, a -> a.status() == 200
                && a.json().at("/requests/0/devices/0/attributes/memory/int").asLong() == memory,
                "the republished memory " + memory + " of " + device + " served");
        assertNotEquals(before.header("ETag"), after.header("ETag"), "a change: a new ETag");
        assertEquals(api.devices(api.claim(namespace, claim), request, DerivedMetadata.DRIVER),
                after.json().at("/requests/0/devices"), "as the newest generation of the pool's slice shows it");
    }

    /**
     * A request of {@value ClaimManifests#MIXED_CLASS} for two devices gets one of each attribute driver: served as
     * one merged request, the drivers in byte order of their file names ({@value KubeNode#ATTRIBUTE_DRIVER} first,
     * derived; then {@value KubeNode#ATTRIBUTE_FILE_DRIVER}, its file, whose attributes are not its slice's),
     * {@code Metadata-Source} naming both in that order, {@code Metadata-Source-Version} what the file gave, each
     * driver's own route its own source.
     */
    void assertADriverWithAFileAndOneWithoutAreOneRequest(Pod pod, String claimRoute, String namespace, String claim,
            String request) throws Exception {
        String route = claimRoute + "/" + request;
        Answer merged = api.awaitAnswer(pod, route, a -> a.status() == 200, "the mixed request served");
        DerivedMetadata.assertSource(merged, RESOURCE_API + ", file", route + ": merge order");
        assertEquals("metadata.resource.k8s.io/v1beta1", merged.header("Metadata-Source-Version"), merged.toString());
        JsonNode devices = merged.json().at("/requests/0/devices");
        List<String> drivers = new ArrayList<>();
        devices.forEach(d -> drivers.add(d.path("driver").asText()));
        assertEquals(List.of(DerivedMetadata.DRIVER, KubeNode.ATTRIBUTE_FILE_DRIVER), drivers, merged.toString());
        assertEquals(api.devices(api.claim(namespace, claim), request, DerivedMetadata.DRIVER).get(0), devices.get(0),
                "the derived device as its slice shows it");
        assertEquals(api.fileDevices(namespace, claim, request), GoOracle.JSON.createArrayNode().add(devices.get(1)),
                "the file's device as the Go reader decodes the driver's file on the host, not its slice's attributes");
        DerivedMetadata.assertSource(api.ask(pod, route + "/drivers/" + DerivedMetadata.DRIVER), RESOURCE_API,
                "the derived driver's route");
        DerivedMetadata.assertSource(api.ask(pod, route + "/drivers/" + KubeNode.ATTRIBUTE_FILE_DRIVER), "file",
                "the file's driver's route");
    }

    /**
     * A claim of the upstream test driver, which writes files: every metadata route of it says
     * {@code Metadata-Source: file} (the existing tests check the bodies).
     */
    void assertFilesAreMarkedFiles(Pod pod, String claim, String request) {
        String route = "/claims/" + claim + "/" + request;
        Answer merged = api.awaitAnswer(pod, route, a -> a.status() == 200, "the test driver's claim served");
        String device = merged.json().at("/requests/0/devices/0/name").asText();
        String driver = merged.json().at("/requests/0/devices/0/driver").asText();
        for (String each : List.of(route, "/claims/" + claim, route + "/drivers/" + driver,
                route + "/devices/" + device + "/attributes/driverName", route + "/attributes/driverName", route + "/env",
                "/devices?claim=" + claim, "/devices/attributes/driverName?claim=" + claim)) {
            DerivedMetadata.assertSource(api.ask(pod, each), "file", each);
        }
    }
}
