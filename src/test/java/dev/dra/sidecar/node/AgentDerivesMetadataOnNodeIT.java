package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dra.sidecar.node.DerivedMetadata.Via;
import dev.dra.sidecar.testsupport.Eventually;
import io.fabric8.kubernetes.api.model.Pod;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Node mode as shipped (deploy/kubernetes/node) on the real node, for claims of {@value KubeNode#ATTRIBUTE_DRIVER},
 * a driver that writes no metadata file: through the agent, with their tokens, a pod with a direct claim, one with a
 * template claim and one with an extended-resource request each get every device allocated to them, with exactly
 * the attributes the driver's ResourceSlice shows ({@link DerivedChecks}); {@code networkData} written into a claim's
 * status is served and answers a long poll waiting for it; the driver's pool republished with a changed attribute is
 * served as a change; a request with a device of each attribute driver is one merged request; and the upstream test
 * driver's claims, which have files, are served as files.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AgentDerivesMetadataOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    private static final String EXTENDED = ClaimManifests.EXTENDED_ATTRIBUTES_RESOURCE;
    private static NodeAgent agent;
    private static String namespace;
    private static Pod direct;
    private static Pod template;
    private static Pod extended;
    private static DerivedMetadata api;
    private static DerivedChecks checks;

    @BeforeAll
    static void deployNodeModeAndThePods() throws Exception {
        agent = NodeAgent.deploy(NODE);
        NODE.apply(ClaimManifests.EXTENDED_ATTRIBUTES_CLASS);
        api = new DerivedMetadata(NODE, Via.AGENT);
        checks = new DerivedChecks(api);
        namespace = NODE.restrictedNamespace("derived-agent", AppPods.optIn());
        NODE.create(namespace, ClaimManifests.all(
                ClaimManifests.claim("gpu-claim", "gpu", ClaimManifests.ATTRIBUTES_CLASS, 2),
                ClaimManifests.template("gpu-template", "gpu", ClaimManifests.ATTRIBUTES_CLASS),
                ClaimManifests.claim("mixed-claim", "pair", ClaimManifests.MIXED_CLASS, 2),
                ClaimManifests.claim("test-claim", "gpu")));
        List<Pod> submitted = new ArrayList<>();
        for (Pod pod : List.of(
                NodeAgent.app(NODE, namespace, "direct", "{claims: [{name: gpu}, {name: mixed}, {name: files}]}",
                        "resourceClaims: [{name: gpu, resourceClaimName: gpu-claim}, {name: mixed, resourceClaimName: "
                                + "mixed-claim}, {name: files, resourceClaimName: test-claim}]", "true"),
                NodeAgent.app(NODE, namespace, "template", "{claims: [{name: my-gpu}]}",
                        "resourceClaims: [{name: my-gpu, resourceClaimTemplateName: gpu-template}]", "true"),
                NodeAgent.app(NODE, namespace, "extended", "{limits: {" + EXTENDED + ": \"1\"}}", "", "true"))) {
            submitted.add(NODE.client().resource(pod).create());
        }
        direct = NODE.pods().awaitAppRunning(submitted.get(0));
        template = NODE.pods().awaitAppRunning(submitted.get(1));
        extended = NODE.pods().awaitAppRunning(submitted.get(2));
    }

    /**
     * Removes the pods and their claims (waiting until their devices are free for the classes that follow), node
     * mode, and the extended resource's DeviceClass.
     */
    @AfterAll
    static void removeNodeMode() throws Exception {
        if (namespace != null) {
            NODE.client().namespaces().withName(namespace).delete();
            Eventually.await(Duration.ofSeconds(120), () -> NODE.client().namespaces().withName(namespace).get(),
                    n -> n == null, "namespace " + namespace + " gone, its claims' devices free");
        }
        if (agent != null) {
            agent.remove();
        }
        NODE.delete(ClaimManifests.EXTENDED_ATTRIBUTES_CLASS);
    }

    /** The agent's metrics, where the long polls waiting in it are counted. */
    private static URI agentMetrics() {
        return URI.create("http://" + agent.pod().getStatus().getPodIP() + ":9000/q/metrics");
    }

    @Test
    @Order(1)
    void aDirectATemplateAndAnExtendedResourceClaimGetEveryDeviceWithTheAttributesOfItsSlice() {
        checks.assertAsTheClusterHasIt(direct, "/claims/gpu-claim/gpu", namespace, "gpu-claim", "gpu");
        checks.assertListedAsDerived(direct, "claims", "gpu-claim", "gpu");
        assertEquals(2, api.ask(direct, "/claims/gpu-claim/gpu").json().at("/requests/0/devices").size(),
                "the request's two devices");

        String generated = AppPods.generatedClaim(template, "my-gpu");
        DerivedMetadata.Answer fromTemplate = checks.assertAsTheClusterHasIt(template, "/template-claims/my-gpu/gpu",
                namespace, generated, "gpu");
        assertEquals("my-gpu", fromTemplate.json().path("podClaimName").asText(), fromTemplate.toString());
        checks.assertListedAsDerived(template, "template-claims", "my-gpu", "gpu");

        var status = extended.getStatus().getExtendedResourceClaimStatus();
        String request = status.getRequestMappings().stream().filter(m -> m.getContainerName().equals(AppPods.APP)
                && m.getResourceName().equals(EXTENDED)).findFirst().orElseThrow().getRequestName();
        checks.assertAsTheClusterHasIt(extended, "/extended-resources/" + AppPods.APP + "/" + EXTENDED, namespace,
                status.getResourceClaimName(), request);
        checks.assertAsTheClusterHasIt(extended, "/claims/" + status.getResourceClaimName() + "/" + request,
                namespace, status.getResourceClaimName(), request);
    }

    @Test
    @Order(2)
    void networkDataWrittenIntoTheClaimsStatusIsServedAndAnswersAWaitingLongPoll() throws Exception {
        checks.assertNetworkDataAnswersAWaitingLongPoll(direct, "/claims/gpu-claim/gpu", namespace, "gpu-claim", "gpu",
                agentMetrics());
    }

    @Test
    @Order(3)
    void theDriversPoolRepublishedWithAChangedAttributeIsServedAsAChange() throws Exception {
        checks.assertARepublishedAttributeIsAChange(template, "/template-claims/my-gpu/gpu", namespace,
                AppPods.generatedClaim(template, "my-gpu"), "gpu");
        checks.assertAsTheClusterHasIt(direct, "/claims/gpu-claim/gpu", namespace, "gpu-claim", "gpu");
    }

    @Test
    @Order(4)
    void aRequestWithADeviceOfADriverWithFilesAndOneWithoutIsOneMergedRequest() throws Exception {
        checks.assertADriverWithAFileAndOneWithoutAreOneRequest(direct, "/claims/mixed-claim", namespace, "mixed-claim",
                "pair");
    }

    @Test
    @Order(5)
    void theTestDriversClaimIsServedFromItsFiles() {
        checks.assertFilesAreMarkedFiles(direct, "test-claim", "gpu");
    }
}
