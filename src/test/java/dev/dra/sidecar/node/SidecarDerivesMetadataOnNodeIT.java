package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dra.sidecar.node.DerivedMetadata.Answer;
import dev.dra.sidecar.node.DerivedMetadata.Via;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.GoOracle;
import dev.dra.sidecar.testsupport.Helm;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Injected sidecars on the real node, for claims of {@value KubeNode#ATTRIBUTE_DRIVER}, a driver that writes no
 * metadata file. As shipped (deploy/kubernetes/injection, the resource-API source off), an opted-in pod with such a
 * claim starts at once rather than after the postStart hook's 120 s, and its app learns what it cannot have: no
 * claim listed, the startup check's data and the sidecar's log (once for the claim) naming it absent, and every WARN
 * naming both causes a sidecar cannot tell apart (its container does not list the claim; the driver writes no file).
 * With the source on (the chart installed with {@code resourceApi.enabled} and {@code resourceApi.namespaces}, its
 * RBAC and nothing more), the app container gets from {@code localhost:8089} what node mode's agent gives
 * ({@link DerivedChecks}: every allocated device with its slice's attributes, {@code networkData} and a long poll,
 * a republished attribute as a change, a merged request of a driver with files and one without, files as files), and
 * README's first recipe gives a GPU pod its UUIDs as {@code CUDA_VISIBLE_DEVICES}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SidecarDerivesMetadataOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    /** The postStart hook's hold as shipped: the app starting well within it was not held for want of a file. */
    private static final Duration HOOK_HOLD = Duration.ofSeconds(120);
    private static final List<String> NAMESPACES = new ArrayList<>();
    private static Pod shipped;
    private static Duration shippedStart;
    private static String namespace;
    private static Pod direct;
    private static Pod template;
    private static DerivedMetadata api;
    private static DerivedChecks checks;

    @BeforeAll
    static void theShippedPodThenTheChartWithTheSourceOnAndItsPods() throws Exception {
        NODE.pods().applyInjection();
        String asShipped = NODE.restrictedNamespace("derived-shipped", AppPods.optIn());
        NAMESPACES.add(asShipped);
        NODE.create(asShipped, ClaimManifests.claim("gpu-claim", "gpu", ClaimManifests.ATTRIBUTES_CLASS, 2));
        long created = System.nanoTime();
        shipped = NODE.pods().awaitAppRunning(NODE.pods().createInjected(NODE.pods().app(asShipped, "shipped",
                List.of("/bin/sh", "-c", "exec sleep 3600"), AppPods.claim("gpu", "gpu-claim"))));
        shippedStart = Duration.ofNanos(System.nanoTime() - created);

        NODE.pods().removeInjection();
        namespace = NODE.restrictedNamespace("derived-sidecar", AppPods.optIn());
        NAMESPACES.add(namespace);
        String image = NODE.sidecarImage();
        Helm.forCluster(NODE.node().kubeconfig).succeed("install", AppPods.RELEASE, Helm.CHART.toString(),
                "--namespace", AppPods.RELEASE, "--create-namespace",
                "--set", "image.repository=" + image.substring(0, image.lastIndexOf(':')),
                "--set", "image.tag=" + image.substring(image.lastIndexOf(':') + 1),
                "--set", "resourceApi.enabled=true", "--set", "resourceApi.namespaces={" + namespace + "}");
        api = new DerivedMetadata(NODE, Via.SIDECAR);
        checks = new DerivedChecks(api);
        NODE.create(namespace, ClaimManifests.all(
                ClaimManifests.claim("gpu-claim", "gpu", ClaimManifests.ATTRIBUTES_CLASS, 2),
                ClaimManifests.template("gpu-template", "gpu", ClaimManifests.ATTRIBUTES_CLASS),
                ClaimManifests.claim("mixed-claim", "pair", ClaimManifests.MIXED_CLASS, 2),
                ClaimManifests.claim("test-claim", "gpu")));
        Pod directPod = NODE.pods().app(namespace, "direct", List.of("/bin/sh", "-c", "exec sleep 3600"),
                AppPods.claim("gpu-claim", "gpu-claim"), AppPods.claim("mixed", "mixed-claim"),
                AppPods.claim("files", "test-claim"));
        NODE.pods().awaitAdmitted(directPod, AppPods.POD_START, p -> p.getSpec().getInitContainers().stream()
                .anyMatch(c -> c.getName().equals(AppPods.SIDECAR) && c.getEnv().stream()
                        .anyMatch(e -> e.getName().equals("NODE_NAME"))), "the chart's injection with the source on");
        direct = NODE.client().resource(directPod).create();
        template = NODE.client().resource(NODE.pods().app(namespace, "template", List.of("/bin/sh", "-c",
                "exec sleep 3600"), AppPods.fromTemplate("my-gpu", "gpu-template"))).create();
        direct = NODE.pods().awaitAppRunning(direct);
        template = NODE.pods().awaitAppRunning(template);
    }

    /** Uninstalls the chart, deletes the pods and claims (their devices free again) and applies the shipped injection. */
    @AfterAll
    static void uninstallAndTheShippedInjectionAgain() throws Exception {
        NODE.pods().uninstallChartAndApplyInjection();
        for (String each : NAMESPACES) {
            NODE.client().namespaces().withName(each).delete();
        }
        for (String each : NAMESPACES) {
            Eventually.await(Duration.ofSeconds(120), () -> NODE.client().namespaces().withName(each).get(),
                    n -> n == null, "namespace " + each + " gone, its claims' devices free");
        }
    }

    private static String sidecarLog(Pod pod) {
        return NODE.client().pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                .inContainer(AppPods.SIDECAR).getLog();
    }

    @Test
    @Order(1)
    void asShippedTheAppStartsAtOnceAndLearnsWhyItHasNoMetadata() throws Exception {
        System.err.printf("[node] as shipped: the pod's app running %d ms after its creation%n", shippedStart.toMillis());
        assertTrue(shippedStart.compareTo(HOOK_HOLD.dividedBy(2)) < 0, "not held by the hook: " + shippedStart);
        assertEquals(0, AppPods.status(shipped, AppPods.SIDECAR).getRestartCount(), "the hook did not fail");
        assertEquals("{\"claims\":[],\"devices\":\"/devices\"}\n",
                NODE.pods().exec(shipped, AppPods.APP, "curl", "-fsS", "localhost:8089/claims"), "no claim listed");

        JsonNode started = GoOracle.JSON.readTree(NODE.pods().exec(shipped, AppPods.APP, "curl", "-sS",
                "localhost:9000/q/health/started"));
        assertEquals("UP", started.path("status").asText(), started.toString());
        String state = started.at("/checks/0/data").path("claims/gpu-claim").asText();
        assertTrue(state.startsWith("absent: no metadata for claim gpu-claim (no file is mounted for it at "
                + "/var/run/kubernetes.io/dra-device-attributes/resourceclaims/gpu-claim): "), state);
        assertBothCauses(state);

        List<String> warnings = sidecarLog(shipped).lines().filter(l -> l.contains(" WARN ")).toList();
        List<String> claimWarnings = warnings.stream().filter(l -> l.contains("Expected claim claims/gpu-claim is absent: "
                + "no metadata for claim gpu-claim")).toList();
        assertEquals(1, claimWarnings.size(), "the claim's WARN, once: " + warnings);
        assertBothCauses(claimWarnings.get(0));
        for (String warning : warnings) {
            assertTrue(warning.contains("resources.claims") && warning.contains("write") && warning.contains(
                    "no metadata file"), "every WARN names both causes, not only the claims the container lists: " + warning);
        }
    }

    /** The words that name the two causes a sidecar cannot tell apart, and how to tell them apart. */
    static void assertBothCauses(String text) {
        assertTrue(text.contains("either the sidecar container does not list claim gpu-claim in its own "
                + "resources.claims (kubelet mounts only the claims a container lists), or its driver writes no metadata "
                + "file (most drivers write none by default)"), text);
        assertTrue(text.contains("kubectl get resourceclaim gpu-claim -o jsonpath="), text);
    }

    @Test
    @Order(2)
    void withTheSourceOnDirectAndTemplateClaimsGetEveryDeviceWithTheAttributesOfItsSlice() {
        Container sidecar = AppPods.container(direct, AppPods.SIDECAR);
        assertEquals(List.of("dra-metadata-sidecar-api-access"), sidecar.getVolumeMounts().stream()
                .map(m -> m.getName()).toList(), "the sidecar's own service account token");
        checks.assertAsTheClusterHasIt(direct, "/claims/gpu-claim/gpu", namespace, "gpu-claim", "gpu");
        checks.assertListedAsDerived(direct, "claims", "gpu-claim", "gpu");
        String generated = AppPods.generatedClaim(template, "my-gpu");
        Answer fromTemplate = checks.assertAsTheClusterHasIt(template, "/template-claims/my-gpu/gpu", namespace,
                generated, "gpu");
        assertEquals("my-gpu", fromTemplate.json().path("podClaimName").asText(), fromTemplate.toString());
        checks.assertListedAsDerived(template, "template-claims", "my-gpu", "gpu");
    }

    /**
     * README's first {@code sh} recipe, its driver the node's GPU driver, run by the app's busybox {@code sh}:
     * {@code CUDA_VISIBLE_DEVICES} is the UUIDs of the request's devices in allocation order, as their slice
     * publishes them; the PCI bus IDs, which this driver does not publish, are one empty line per device.
     */
    @Test
    @Order(3)
    void readmesFirstRecipeGivesTheGpusTheirUuidsWhereTheDriverWritesNoFile() throws Exception {
        Matcher block = Pattern.compile("```sh example\\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(Path.of("README.md")));
        assertTrue(block.find(), "README's first sh recipe");
        assertTrue(block.group(1).contains("'localhost:8089/claims/gpu-claim/gpu/attributes/uuid?driver=gpu.example.com'"),
                block.group(1));
        String recipe = block.group(1).replace("?driver=gpu.example.com", "?driver=" + DerivedMetadata.DRIVER);
        JsonNode devices = api.devices(api.claim(namespace, "gpu-claim"), "gpu", DerivedMetadata.DRIVER);
        List<String> uuids = new ArrayList<>();
        devices.forEach(d -> uuids.add(d.at("/attributes/uuid/string").asText()));
        assertEquals(2, uuids.size(), devices.toString());
        assertEquals("CUDA_VISIBLE_DEVICES=" + String.join(",", uuids) + "\n\n\n",
                NODE.pods().exec(direct, AppPods.APP, "sh", "-eu", "-c", recipe), "the recipe's output");
    }

    @Test
    @Order(4)
    void networkDataWrittenIntoTheClaimsStatusIsServedAndAnswersAWaitingLongPoll() throws Exception {
        checks.assertNetworkDataAnswersAWaitingLongPoll(direct, "/claims/gpu-claim/gpu", namespace, "gpu-claim", "gpu",
                URI.create("http://" + direct.getStatus().getPodIP() + ":9000/q/metrics"));
    }

    @Test
    @Order(5)
    void theDriversPoolRepublishedWithAChangedAttributeIsServedAsAChange() throws Exception {
        checks.assertARepublishedAttributeIsAChange(template, "/template-claims/my-gpu/gpu", namespace,
                AppPods.generatedClaim(template, "my-gpu"), "gpu");
    }

    @Test
    @Order(6)
    void aRequestWithADeviceOfADriverWithFilesAndOneWithoutIsOneMergedRequest() throws Exception {
        checks.assertADriverWithAFileAndOneWithoutAreOneRequest(direct, "/claims/mixed-claim", namespace, "mixed-claim",
                "pair");
    }

    @Test
    @Order(7)
    void theTestDriversClaimIsServedFromItsFiles() {
        checks.assertFilesAreMarkedFiles(direct, "test-claim", "gpu");
    }
}
