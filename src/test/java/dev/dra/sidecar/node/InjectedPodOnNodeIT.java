package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * deploy/kubernetes/injection applied as shipped (its parameters name the image imported into the node) on the
 * real node: a pod that opts in, with a claim of two requests and a claim from a template, gets the sidecar, and
 * its app reads every request, each equal to what the Go reader decodes from the driver's file on the host. A
 * sidecar narrowed to one request sees that request only, as upstream's own e2e test checks for containers.
 */
class InjectedPodOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();

    @BeforeAll
    static void applyTheInjection() throws Exception {
        NODE.pods().applyInjection();
    }

    /** The claim {@code pair} of two requests, {@code a} and {@code b}, and the template {@code single}. */
    private static void claims(String namespace) {
        NODE.create(namespace, ClaimManifests.all(ClaimManifests.claim("pair", "a", "b"),
                ClaimManifests.template("single", "gpu")));
    }

    /** The pod {@code name} with the claims of {@link #claims}, whose app runs {@code script} with sh, then sleeps. */
    private static Pod app(String namespace, String name, String script) {
        return NODE.pods().app(namespace, name, List.of("/bin/sh", "-c", script + "; exec sleep 3600"),
                AppPods.claim("pair", "pair"), AppPods.fromTemplate("own", "single"));
    }

    /** What Go decodes from the driver's file of {@code claim}'s {@code request} on the host, but its generation. */
    private static JsonNode goDecodeWithoutGeneration(String namespace, String claim, String request) throws Exception {
        return GoReader.withoutGeneration(NODE.goReader().decode(NODE.pods().hostFile(namespace, claim, request)));
    }

    @Test
    void anOptedInPodGetsTheSidecarAndItsAppReadsEveryRequestAsGoDecodesIt() throws Exception {
        String namespace = NODE.restrictedNamespace("injected", AppPods.optIn());
        claims(namespace);
        Pod pod = app(namespace, "injected", "for p in claims/pair/a claims/pair/b template-claims/own/gpu; do "
                + "curl -fsS localhost:8089/$p; echo; done");
        Pod created = NODE.client().resource(pod).create();
        assertEquals(AppPods.SIDECAR, created.getSpec().getInitContainers().get(0).getName(), "the sidecar injected");
        Pod running = NODE.pods().awaitAppRunning(created);

        List<TimedLine> lines = NODE.pods().awaitLog(running, AppPods.APP, 3);
        assertEquals(goDecodeWithoutGeneration(namespace, "pair", "a"), NODE.goReader().asGoSeesIt(lines.get(0).text()), "claims/pair/a");
        assertEquals(goDecodeWithoutGeneration(namespace, "pair", "b"), NODE.goReader().asGoSeesIt(lines.get(1).text()), "claims/pair/b");
        assertEquals(goDecodeWithoutGeneration(namespace, AppPods.generatedClaim(running, "own"), "gpu"),
                NODE.goReader().asGoSeesIt(lines.get(2).text()), "template-claims/own/gpu (podClaimName own)");
    }

    @Test
    void aSidecarNarrowedToOneRequestSeesThatRequestOnly() throws Exception {
        String namespace = NODE.restrictedNamespace("narrowed", Map.of());
        claims(namespace);
        Pod base = NODE.pods().basePod(namespace, "unused");
        Pod pod = new PodBuilder(app(namespace, "narrowed", "curl -fsS localhost:8089/claims; echo")).editSpec()
                .withInitContainers(AppPods.container(base, AppPods.SIDECAR)).withVolumes(base.getSpec().getVolumes())
                .endSpec().build();
        var sidecar = pod.getSpec().getInitContainers().get(0);
        sidecar.getResources().setClaims(List.of(new io.fabric8.kubernetes.api.model.ResourceClaimBuilder()
                .withName("pair").withRequest("a").build()));
        sidecar.getEnv().stream().filter(e -> e.getName().equals("DRA_METADATA_EXPECTED_CLAIMS")).findFirst()
                .orElseThrow().setValue("claims/pair/a");
        Pod running = NODE.pods().awaitAppRunning(NODE.client().resource(pod).create());

        assertEquals("{\"claims\":[{\"name\":\"pair\",\"requests\":[\"a\"]}],\"devices\":\"/devices\"}", NODE.pods().awaitLog(running, AppPods.APP, 1).get(0).text(),
                "the sidecar lists the one request its container lists");
        assertEquals("404", NODE.pods().exec(running, AppPods.APP, "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}",
                "localhost:8089/claims/pair/b"), "the other request is not there for it");
    }
}
