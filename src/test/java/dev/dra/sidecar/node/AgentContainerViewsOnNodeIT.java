package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.GoOracle;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Each container its own view, on the real node through node mode as shipped: the injection gives container
 * {@code direct} (which lists {@code gpu-claim}) and container {@code templated} (which lists the template claim
 * {@code my-gpu}) each a token of its own and container {@code bystander} (which lists nothing) none; each sees only
 * its own claim, as the kubelet mounts it, and a container's token sent from the other container gets the first
 * container's view, not the sender's.
 */
class AgentContainerViewsOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    private static NodeAgent agent;
    private static String namespace;
    private static Pod pod;

    @BeforeAll
    static void deployTheAgentAndAPodOfThreeContainers() throws Exception {
        agent = NodeAgent.deploy(NODE);
        namespace = NODE.restrictedNamespace("agent-containers", AppPods.optIn());
        NODE.create(namespace, ClaimManifests.GPU_CLAIM_AND_TEMPLATE);
        Pod created = NODE.client().resource(NodeAgent.pod(NODE, namespace, "containers", """
                resourceClaims:
                  - {name: gpu, resourceClaimName: gpu-claim}
                  - {name: my-gpu, resourceClaimTemplateName: gpu-template}""", List.of(
                new NodeAgent.AppContainer("direct", "{claims: [{name: gpu}]}", ""),
                new NodeAgent.AppContainer("templated", "{claims: [{name: my-gpu}]}", ""),
                new NodeAgent.AppContainer("bystander", "{}", "")))).create();
        pod = Eventually.await(AppPods.POD_START, () -> NODE.pods().get(created),
                p -> List.of("direct", "templated", "bystander").stream().allMatch(c -> AppPods.running(p, c)),
                "the three containers running");
    }

    @AfterAll
    static void removeThem() throws Exception {
        if (namespace != null) {
            NODE.client().namespaces().withName(namespace).delete();
        }
        if (agent != null) {
            agent.remove();
        }
    }

    /** What {@code container} is answered for {@code route} with {@code token}'s text ({@code null}: its own token). */
    private static JsonNode ask(String container, String route, String token) throws Exception {
        String bearer = token == null ? "$(cat " + NodeAgent.TOKEN + ")" : token;
        String body = NODE.pods().exec(pod, container, "sh", "-c",
                "curl -s -H \"Authorization: Bearer " + bearer + "\" \"$DRA_METADATA_URL" + route + "\"");
        return GoOracle.JSON.readTree(body);
    }

    private static List<String> names(JsonNode index) {
        return index.path("claims").findValuesAsText("name");
    }

    @Test
    void eachContainerSeesTheClaimItListsAndNoOther() throws Exception {
        assertEquals(List.of("gpu-claim"), names(ask("direct", "/claims", null)));
        assertEquals(List.of(), names(ask("direct", "/template-claims", null)));
        assertEquals("DeviceMetadata", ask("direct", "/claims/gpu-claim/gpu", null).path("kind").asText());
        assertEquals("not-own-claim", ask("direct", "/template-claims/my-gpu/gpu", null).path("code").asText());

        assertEquals(List.of(), names(ask("templated", "/claims", null)));
        assertEquals(List.of("my-gpu"), names(ask("templated", "/template-claims", null)));
        assertEquals("DeviceMetadata", ask("templated", "/template-claims/my-gpu/gpu", null).path("kind").asText());
        assertEquals("not-own-claim", ask("templated", "/claims/gpu-claim/gpu", null).path("code").asText());
    }

    @Test
    void aContainerThatListsNothingGetsNoTokenAndAnotherContainersTokenGivesThatContainersView() throws Exception {
        String env = NODE.pods().exec(pod, "bystander", "sh", "-c", "env; ls /var/run/secrets 2>&1 || true");
        assertFalse(env.contains("DRA_METADATA_URL"), env);
        assertFalse(env.contains("dra-metadata"), env);

        String directsToken = NODE.pods().exec(pod, "direct", "cat", NodeAgent.TOKEN).strip();
        assertEquals(List.of("gpu-claim"), names(ask("templated", "/claims", directsToken)));
        assertEquals(List.of(), names(ask("templated", "/template-claims", directsToken)));
    }
}
