package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.GoOracle;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hostile pods against the agent on the real node, each refused with the problem code docs/node-mode.md gives: no
 * token, a token for another audience, a pod's own token for another pod's claim, a copied token of a deleted pod,
 * and a hostNetwork pod (whose calls come from the node's address) with a token of the right audience.
 */
class AgentRefusalsOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    private static NodeAgent agent;
    private static String namespace;
    private static String hostNamespace;
    private static Pod owner;
    private static Pod other;

    @BeforeAll
    static void deployTheAgentAndTwoPods() throws Exception {
        agent = NodeAgent.deploy(NODE);
        namespace = NODE.restrictedNamespace("agent-hostile", AppPods.optIn());
        NODE.create(namespace, ClaimManifests.GPU_CLAIM_AND_TEMPLATE);
        Pod submittedOwner = NODE.client().resource(NodeAgent.app(NODE, namespace, "owner", "{claims: [{name: gpu}]}",
                "resourceClaims: [{name: gpu, resourceClaimName: gpu-claim}]", "true")).create();
        Pod submittedOther = NODE.client().resource(NodeAgent.app(NODE, namespace, "other", "{claims: [{name: my-gpu}]}",
                "resourceClaims: [{name: my-gpu, resourceClaimTemplateName: gpu-template}]", "true")).create();
        owner = NODE.pods().awaitAppRunning(submittedOwner);
        other = NODE.pods().awaitAppRunning(submittedOther);
    }

    @AfterAll
    static void removeThem() throws Exception {
        for (String name : new String[] {namespace, hostNamespace}) {
            if (name != null) {
                NODE.client().namespaces().withName(name).delete();
            }
        }
        if (agent != null) {
            agent.remove();
        }
        NODE.delete(ClaimManifests.EXTENDED_CLASS);
    }

    /** Status line and problem code of the agent's answer to {@code curl} run in {@code pod}'s app with {@code args}. */
    private static String refusal(Pod pod, String... curlArgs) throws Exception {
        StringBuilder command = new StringBuilder("curl -s -w '\\n%{http_code}'");
        for (String arg : curlArgs) {
            command.append(' ').append(arg);
        }
        String out = NODE.pods().exec(pod, AppPods.APP, "sh", "-c", command.toString());
        int newline = out.lastIndexOf('\n');
        String status = out.substring(newline + 1).strip();
        String body = out.substring(0, newline);
        if (status.startsWith("2")) {
            return status + " " + body;
        }
        JsonNode problem = GoOracle.JSON.readTree(body);
        return status + " " + problem.path("code").asText();
    }

    /**
     * {@code pod} given by hand what node mode's injection gives an opted-in pod: a projected token for
     * {@code audience} in the volume {@code volume}, mounted read-only at {@code mountPath} in its first container,
     * and {@code DRA_METADATA_URL} naming the agent at the owner pod's node address.
     */
    private static Pod givenToken(Pod pod, String volume, String audience, String mountPath) {
        return new PodBuilder(pod).editSpec()
                .addNewVolume().withName(volume).withNewProjected().addNewSource().withNewServiceAccountToken()
                .withAudience(audience).withPath("token").endServiceAccountToken().endSource().endProjected()
                .endVolume().editFirstContainer().addNewVolumeMount().withName(volume).withMountPath(mountPath)
                .withReadOnly(true).endVolumeMount().addNewEnv().withName("DRA_METADATA_URL")
                .withValue(NodeAgent.url(owner)).endEnv().endContainer().endSpec().build();
    }

    /** The curl arguments that send the token in {@code tokenFile} as the bearer token. */
    private static String withToken(String tokenFile) {
        return "-H \"Authorization: Bearer $(cat " + tokenFile + ")\"";
    }

    @Test
    void noTokenIsRefused() throws Exception {
        assertEquals("401 missing-token", refusal(owner, "\"$DRA_METADATA_URL/claims/gpu-claim/gpu\""));
    }

    @Test
    void aForgedTokenIsRefused() throws Exception {
        assertEquals("401 invalid-token", refusal(owner, "-H 'Authorization: Bearer eyJhbGciOiJub25lIn0.e30.'",
                "\"$DRA_METADATA_URL/claims/gpu-claim/gpu\""));
    }

    @Test
    void aTokenForAnotherAudienceIsRefused() throws Exception {
        Pod pod = givenToken(NodeAgent.app(NODE, namespace, "other-audience", "{}", "", "true"), "other",
                "another-service", "/var/run/other");
        Pod running = NODE.pods().awaitAppRunning(NODE.client().resource(pod).create());
        assertEquals("401 invalid-token", refusal(running, withToken("/var/run/other/token"),
                "\"$DRA_METADATA_URL/claims/gpu-claim/gpu\""));
    }

    @Test
    void aPodsOwnTokenGetsNoOtherPodsClaim() throws Exception {
        String othersClaim = AppPods.generatedClaim(other, "my-gpu");
        assertTrue(refusal(owner, withToken(NodeAgent.TOKEN), "\"$DRA_METADATA_URL/claims/gpu-claim/gpu\"")
                .startsWith("200 "), "its own claim");
        assertEquals("404 not-own-claim", refusal(owner, withToken(NodeAgent.TOKEN),
                "\"$DRA_METADATA_URL/claims/" + othersClaim + "/gpu\""), "the other pod's claim by its name");
        assertEquals("404 not-own-claim", refusal(owner, withToken(NodeAgent.TOKEN),
                "\"$DRA_METADATA_URL/template-claims/my-gpu/gpu\""), "the other pod's template claim");
        assertTrue(refusal(other, withToken(NodeAgent.TOKEN), "\"$DRA_METADATA_URL/template-claims/my-gpu/gpu\"")
                .startsWith("200 "), "which is the other pod's own");
    }

    /**
     * A token copied out of a pod that is then deleted, shown from another pod: refused whichever check sees it
     * first (the agent's watch saw the pod deleted, the caller's address; a TokenReview while the agent has no keys).
     */
    @Test
    void aCopiedTokenOfADeletedPodIsRefused() throws Exception {
        NODE.apply(ClaimManifests.EXTENDED_CLASS);
        Pod victim = NODE.pods().awaitAppRunning(NODE.client().resource(NodeAgent.app(NODE, namespace, "victim",
                "{limits: {" + ClaimManifests.EXTENDED_RESOURCE + ": \"1\"}}", "", "true")).create());
        String token = NODE.pods().exec(victim, AppPods.APP, "cat", NodeAgent.TOKEN).strip();
        String claim = victim.getStatus().getExtendedResourceClaimStatus().getResourceClaimName();
        NODE.client().resource(victim).withGracePeriod(0).delete();
        Eventually.await(Duration.ofSeconds(60), () -> NODE.pods().get(victim), p -> p == null, "the victim pod gone");
        String refused = refusal(owner, "-H 'Authorization: Bearer " + token + "'",
                "\"$DRA_METADATA_URL/claims/" + claim + "/container-0-request-0\"");
        assertTrue(Set.of("401 invalid-token", "403 pod-not-on-node", "403 peer-not-allowed").contains(refused), refused);
        System.err.println("[node] a deleted pod's copied token: " + refused);
    }

    @Test
    void aHostNetworkPodIsRefused() throws Exception {
        hostNamespace = "agent-host-network";
        NODE.client().resource(new NamespaceBuilder().withNewMetadata().withName(hostNamespace)
                .withLabels(Map.of("pod-security.kubernetes.io/enforce", "privileged")).endMetadata().build()).create();
        NODE.client().serviceAccounts().inNamespace(hostNamespace).withName("default").waitUntilCondition(
                sa -> sa != null, 30, TimeUnit.SECONDS);
        Pod pod = new PodBuilder(givenToken(NodeAgent.app(NODE, hostNamespace, "host-network", "{}", "", "true"),
                NodeAgent.FIRST_TOKEN_VOLUME, NodeAgent.audience(AppPods.APP), "/var/run/secrets/dra-metadata"))
                .editMetadata().withLabels(Map.of()).endMetadata().editSpec().withHostNetwork(true).endSpec().build();
        Pod running = NODE.pods().awaitAppRunning(NODE.client().resource(pod).create());
        assertEquals("403 peer-not-allowed", refusal(running, withToken(NodeAgent.TOKEN), "\"$DRA_METADATA_URL/claims\""));
    }
}
