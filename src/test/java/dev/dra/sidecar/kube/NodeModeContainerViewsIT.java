package dev.dra.sidecar.kube;

import static dev.dra.sidecar.kube.AgentRequests.as;
import static dev.dra.sidecar.kube.AgentRequests.problem;
import static dev.dra.sidecar.kube.ClusterPods.LOOPBACK;
import static dev.dra.sidecar.kube.InjectionPods.direct;
import static dev.dra.sidecar.kube.InjectionPods.template;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;

import dev.dra.sidecar.snapshot.ClaimKind;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Node mode in process, against a real API server ({@link NodeAgentCluster}): a token for the audience
 * {@code dra-metadata-sidecar/<container>} gets that container's view, as the kubelet mounts claims into it: the
 * claims it lists (a whole claim, or only the request it names), its own extended resources, nothing of the pod's
 * other containers; a container that lists nothing sees nothing; a token for the bare audience gets the pod's view;
 * one for a container the pod does not have is refused. One pod, with these containers:
 * <ul>
 *   <li>{@code gpu-user}: the claim {@code gpu-claim} (pod claim {@code gpu}), whole, and one {@value #GPU};</li>
 *   <li>{@code tpl-user}: the template claim (pod claim {@code tpl});</li>
 *   <li>{@code pair-user}: only the request {@code first} of {@code pair-claim} (which also has {@code second});</li>
 *   <li>{@code idle}: nothing; the init container {@code setup}: {@code gpu-claim}, whole.</li>
 * </ul>
 */
@QuarkusTest
@WithTestResource(value = NodeAgentCluster.class,
        initArgs = @ResourceArg(name = "state", value = "kube-apiserver-node-containers"))
class NodeModeContainerViewsIT {

    private static final String GPU = "example.com/gpu";
    private static final String EXTENDED_REQUEST = "container-0-request-0";
    private static final String GENERATED = "viewed-tpl-x7k2p";
    private static final String EXTENDED_CLAIM = "viewed-extended-resources-k2p7x";

    NodeCluster cluster;
    private static Pod pod;
    private static CdiClaims.Prepared gpu;
    private static CdiClaims.Prepared first;

    @BeforeEach
    void available() {
        NodeCluster.assumeAvailable(cluster);
        synchronized (NodeModeContainerViewsIT.class) {
            if (pod == null) {
                startThePod();
            }
        }
    }

    private void startThePod() {
        String namespace = cluster.pods().namespace("containers");
        Container gpuUser = new ContainerBuilder(InjectionPods.app("gpu-user", "gpu")).editResources()
                .withLimits(Map.of(GPU, new Quantity("1"))).endResources().build();
        pod = cluster.pods().start(namespace, InjectionPods.pod("viewed",
                List.of(direct("gpu", "gpu-claim"), template("tpl", "gpu-template"), direct("pair", "pair-claim")),
                List.of(InjectionPods.app("setup", "gpu")),
                List.of(gpuUser, InjectionPods.app("tpl-user", "tpl"), InjectionPods.app("pair-user", "pair/first"),
                        InjectionPods.app("idle"))),
                LOOPBACK, status -> status
                        .addNewResourceClaimStatus().withName("tpl").withResourceClaimName(GENERATED)
                        .endResourceClaimStatus()
                        .withNewExtendedResourceClaimStatus().withResourceClaimName(EXTENDED_CLAIM)
                        .addNewRequestMapping().withContainerName("gpu-user").withResourceName(GPU)
                        .withRequestName(EXTENDED_REQUEST).endRequestMapping()
                        .endExtendedResourceClaimStatus());
        CdiClaims cdi = cluster.cdi();
        gpu = cdi.prepare(namespace, ClaimKind.CLAIM, "gpu-claim", "gpu-claim", "gpu", "M-gpu");
        cdi.prepare(namespace, ClaimKind.TEMPLATE_CLAIM, "tpl", GENERATED, "gpu", "M-template");
        first = cdi.prepare(namespace, ClaimKind.CLAIM, "pair-claim", "pair-claim", "first", "M-first");
        cdi.prepare(namespace, ClaimKind.CLAIM, "pair-claim", "pair-claim", "second", "M-second");
        cdi.prepare(namespace, ClaimKind.CLAIM, EXTENDED_CLAIM, EXTENDED_CLAIM, EXTENDED_REQUEST, "M-extended");
    }

    private String token(String container) {
        return cluster.pods().token(pod, container.isEmpty() ? ClusterPods.AUDIENCE : ClusterPods.AUDIENCE + "/" + container);
    }

    @Test
    void aContainerSeesTheClaimsItListsAndItsOwnExtendedResourcesOnly() {
        String gpuUser = token("gpu-user");
        as(gpuUser).get("/claims").then().statusCode(200).body("claims.name", contains("gpu-claim", EXTENDED_CLAIM));
        as(gpuUser).get("/template-claims").then().statusCode(200).body("claims", empty());
        as(gpuUser).get("/claims/gpu-claim/gpu").then().statusCode(200).body(equalTo(SidecarBodies.request(gpu)));
        as(gpuUser).get("/extended-resources").then().statusCode(200).body("containers.name", contains("gpu-user"));
        as(gpuUser).get("/extended-resources/gpu-user/" + GPU).then().statusCode(200)
                .body(containsString("\"M-extended\""));
        problem(as(gpuUser).get("/template-claims/tpl/gpu"), 404, "not-own-claim");
        problem(as(gpuUser).get("/claims/pair-claim/first"), 404, "not-own-claim");

        String tplUser = token("tpl-user");
        as(tplUser).get("/claims").then().statusCode(200).body("claims", empty());
        as(tplUser).get("/template-claims/tpl/gpu").then().statusCode(200).body(containsString("\"M-template\""));
        as(tplUser).get("/extended-resources").then().statusCode(200).body("containers", empty());
        problem(as(tplUser).get("/claims/gpu-claim/gpu"), 404, "not-own-claim");
        problem(as(tplUser).get("/extended-resources/gpu-user/" + GPU), 404, "not-own-claim");

        as(token("setup")).get("/claims").then().statusCode(200).body("claims.name", contains("gpu-claim"));
    }

    @Test
    void aContainerThatListsOneRequestOfAClaimSeesThatRequestOnly() {
        String pairUser = token("pair-user");
        as(pairUser).get("/claims").then().statusCode(200).body("claims.name", contains("pair-claim"))
                .body("claims[0].requests", contains("first"));
        as(pairUser).get("/claims/pair-claim/first").then().statusCode(200).body(equalTo(SidecarBodies.request(first)));
        as(pairUser).get("/claims/pair-claim").then().statusCode(200).body("requests", hasSize(1))
                .body(containsString("\"M-first\""), not(containsString("\"M-second\"")));
        problem(as(pairUser).get("/claims/pair-claim/second"), 404, "not-found");

        as(token("")).get("/claims/pair-claim").then().statusCode(200).body("requests", hasSize(2))
                .body(containsString("\"M-first\""), containsString("\"M-second\""));
    }

    @Test
    void aContainerThatListsNothingSeesNothingAndTheBareAudienceSeesThePod() {
        String idle = token("idle");
        as(idle).get("/claims").then().statusCode(200).body("claims", empty());
        as(idle).get("/template-claims").then().statusCode(200).body("claims", empty());
        problem(as(idle).get("/claims/gpu-claim/gpu"), 404, "not-own-claim");

        String wholePod = token("");
        as(wholePod).get("/claims").then().statusCode(200)
                .body("claims.name", contains("gpu-claim", "pair-claim", EXTENDED_CLAIM));
        as(wholePod).get("/template-claims").then().statusCode(200).body("claims.name", contains("tpl"));
    }

    @Test
    void aTokenForAContainerThePodDoesNotHaveIsRefused() {
        problem(as(token("stranger")).get("/claims"), 401, "invalid-token")
                .body("detail", containsString("container stranger"));
    }
}
