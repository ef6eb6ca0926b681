package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.GoOracle;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Node mode as shipped (deploy/kubernetes/node) on the real node: in two namespaces that enforce Restricted, a pod
 * with a direct claim, one with a template claim and one with an extended-resource request (a DeviceClass with
 * {@code extendedResourceName}, no claim in the pod spec) each read their own metadata from their app container
 * through the agent, with the very first line of the app (the first-ask race: the agent may not have heard of the
 * pod yet), equal to what the Go reader decodes from the driver's file on the host. A replacement by rename on the
 * host is served (nothing is detached in node mode), once the agent's pod is replaced the pods are answered
 * again, a file the agent may not reach is reported unreadable, not passed over, and after a SIGKILL of the agent the
 * kubelet restarts it in its pod (the gap an app asking in a loop sees is reported).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AgentOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    private static final Duration PROPAGATION = Duration.ofSeconds(30);
    private static final String GPU = ClaimManifests.EXTENDED_RESOURCE;
    private static NodeAgent agent;
    /** Per namespace: the direct, template and extended pods once their app runs. */
    private static final Map<String, List<Pod>> PODS_BY_NAMESPACE = new LinkedHashMap<>();

    @BeforeAll
    static void deployNodeModeAndThePods() throws Exception {
        agent = NodeAgent.deploy(NODE);
        NODE.apply(ClaimManifests.EXTENDED_CLASS);
        List<Pod> submitted = new ArrayList<>();
        for (String prefix : List.of("agent-a", "agent-b")) {
            String namespace = NODE.restrictedNamespace(prefix, AppPods.optIn());
            NODE.create(namespace, ClaimManifests.GPU_CLAIM_AND_TEMPLATE);
            List<Pod> pods = List.of(
                    NodeAgent.app(NODE, namespace, "direct", "{claims: [{name: gpu}]}",
                            "resourceClaims: [{name: gpu, resourceClaimName: gpu-claim}]", NodeAgent.ask("/claims/gpu-claim/gpu")),
                    NodeAgent.app(NODE, namespace, "template", "{claims: [{name: my-gpu}]}",
                            "resourceClaims: [{name: my-gpu, resourceClaimTemplateName: gpu-template}]",
                            NodeAgent.ask("/template-claims/my-gpu/gpu")),
                    NodeAgent.app(NODE, namespace, "extended", "{limits: {" + GPU + ": \"1\"}}", "",
                            NodeAgent.ask("/extended-resources/app/" + GPU)));
            for (Pod pod : pods) {
                submitted.add(NODE.client().resource(pod).create());
            }
            PODS_BY_NAMESPACE.put(namespace, new ArrayList<>());
        }
        for (Pod pod : submitted) {
            PODS_BY_NAMESPACE.get(pod.getMetadata().getNamespace()).add(NODE.pods().awaitAppRunning(pod));
        }
    }

    @AfterAll
    static void removeNodeMode() throws Exception {
        for (String namespace : PODS_BY_NAMESPACE.keySet()) {
            NODE.client().namespaces().withName(namespace).delete();
        }
        if (agent != null) {
            agent.remove();
        }
        NODE.delete(ClaimManifests.EXTENDED_CLASS);
    }

    /** The pod's claim and request whose file the app reads: by its spec, or mapped in its status. */
    private static String[] claimAndRequest(Pod pod) {
        return switch (pod.getMetadata().getName()) {
            case "direct" -> new String[] {"gpu-claim", "gpu"};
            case "template" -> new String[] {AppPods.generatedClaim(pod, "my-gpu"), "gpu"};
            default -> {
                var status = pod.getStatus().getExtendedResourceClaimStatus();
                yield new String[] {status.getResourceClaimName(), status.getRequestMappings().stream()
                        .filter(m -> m.getContainerName().equals("app") && m.getResourceName().equals(GPU))
                        .findFirst().orElseThrow().getRequestName()};
            }
        };
    }

    /** What Go decodes from the driver's file of the pod's claim on the host, with or without its generation. */
    private static JsonNode goDecode(Pod pod, boolean withGeneration) throws Exception {
        String[] claim = claimAndRequest(pod);
        JsonNode object = NODE.goReader().decode(NODE.pods().hostFile(pod.getMetadata().getNamespace(), claim[0], claim[1]));
        return withGeneration ? object : GoReader.withoutGeneration(object);
    }

    /** The body the agent gives {@code pod}'s app container for {@code route}, asked with the pod's own token. */
    private static String askFrom(Pod pod, String route) throws Exception {
        return NODE.pods().exec(pod, AppPods.APP, "sh", "-c", NodeAgent.ask(route));
    }

    private static String route(Pod pod) {
        return switch (pod.getMetadata().getName()) {
            case "direct" -> "/claims/gpu-claim/gpu";
            case "template" -> "/template-claims/my-gpu/gpu";
            default -> "/extended-resources/app/" + GPU;
        };
    }

    @Test
    @Order(1)
    void everyPodsFirstRequestGetsItsOwnMetadataAsTheGoReaderDecodesTheHostFile() throws Exception {
        List<String> claimsSeen = new ArrayList<>();
        for (List<Pod> pods : PODS_BY_NAMESPACE.values()) {
            for (Pod pod : pods) {
                String first = NODE.pods().awaitLog(pod, AppPods.APP, 1).get(0).text();
                String where = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
                JsonNode served = NODE.goReader().asGoSeesIt(first);
                assertEquals(goDecode(pod, false), served, where + ": the app's first line, " + route(pod));
                assertEquals(pod.getMetadata().getNamespace(), served.at("/metadata/namespace").asText(), where);
                claimsSeen.add(served.at("/metadata/uid").asText());
            }
        }
        assertEquals(claimsSeen.size(), claimsSeen.stream().distinct().count(),
                "six pods, six claims: the namesake gpu-claim of the other namespace is never served: " + claimsSeen);
    }

    @Test
    @Order(2)
    void aReplacementByRenameOnTheHostIsServed() throws Exception {
        Pod pod = PODS_BY_NAMESPACE.values().iterator().next().get(0);
        String[] claim = claimAndRequest(pod);
        Path file = NODE.pods().hostFile(pod.getMetadata().getNamespace(), claim[0], claim[1]);
        ObjectNode stream = (ObjectNode) GoOracle.JSON.readTree(Files.readAllBytes(file));
        long generation = stream.at("/metadata/generation").asLong() + 1;
        ((ObjectNode) stream.get("metadata")).put("generation", generation);
        Path next = file.resolveSibling(".metadata.json.tmp");
        Files.write(next, GoOracle.JSON.writeValueAsBytes(stream));
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        String driver = NODE.node().env.get("driver");
        String served = Eventually.await(PROPAGATION, () -> {
            try {
                return askFrom(pod, "/claims/gpu-claim/gpu/drivers/" + driver);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, body -> body.contains("\"generation\":" + generation), "the renamed file served");
        assertEquals(goDecode(pod, true), NODE.goReader().asGoSeesIt(served), "the new file, as Go decodes it");
    }

    @Test
    @Order(3)
    void onceTheAgentIsReplacedThePodsAreAnsweredAgain() throws Exception {
        long started = System.nanoTime();
        agent.restart();
        System.err.printf("[node] agent replaced and ready in %d ms%n", (System.nanoTime() - started) / 1_000_000);
        for (List<Pod> pods : PODS_BY_NAMESPACE.values()) {
            for (Pod pod : pods) {
                assertEquals(goDecode(pod, false), NODE.goReader().asGoSeesIt(askFrom(pod, route(pod))),
                        pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName() + " after the restart");
            }
        }
    }

    /**
     * A claim's directory closed to the agent's user (root's, 0700) when the agent starts: the file its driver's CDI
     * spec names is reported unreadable in the agent's log, with the reason, not passed over as a file not written
     * yet; once the directory opens again the file is served.
     */
    @Test
    @Order(4)
    void aFileTheAgentMayNotReachIsReportedUnreadableAndServedOnceItMay() throws Exception {
        Pod pod = new ArrayList<>(PODS_BY_NAMESPACE.values()).get(1).get(0);
        String[] claim = claimAndRequest(pod);
        Path file = NODE.pods().hostFile(pod.getMetadata().getNamespace(), claim[0], claim[1]);
        Path claimDirectory = file.getParent().getParent();
        Set<PosixFilePermission> open = Files.getPosixFilePermissions(claimDirectory);
        Files.setPosixFilePermissions(claimDirectory, PosixFilePermissions.fromString("rwx------"));
        try {
            Pod restarted = agent.restart();
            Eventually.await(PROPAGATION, () -> NODE.client().pods().inNamespace(restarted.getMetadata().getNamespace())
                    .withName(restarted.getMetadata().getName()).inContainer("agent").getLog(),
                    log -> log.contains(" WARN ") && log.contains(file + ": cannot read file attributes: permission denied"),
                    "the agent's warning that it may not read " + file);
        } finally {
            Files.setPosixFilePermissions(claimDirectory, open);
        }
        String served = Eventually.await(PROPAGATION, () -> {
            try {
                return askFrom(pod, route(pod));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, body -> body.contains("\"attributes\""), "the file served once the agent may read it");
        assertEquals(goDecode(pod, false), NODE.goReader().asGoSeesIt(served), "the file, as Go decodes it");
    }
    /**
     * The agent's JVM killed (SIGKILL) while an app asks every 100 ms on a new connection, without retrying: the kubelet
     * restarts the container in the same pod, and the app is answered again. What the app saw is reported: the longest
     * gap between two answers and the requests that failed in it (each a connection refused while nothing listened).
     */
    @Test
    @Order(5)
    void aKilledAgentIsRestartedInItsPodAndTheAppIsAnsweredAgain() throws Exception {
        String namespace = PODS_BY_NAMESPACE.keySet().iterator().next();
        Pod looping = NODE.pods().awaitAppRunning(NODE.client().resource(NodeAgent.app(NODE, namespace, "looping",
                "{claims: [{name: gpu}]}", "resourceClaims: [{name: gpu, resourceClaimName: gpu-claim}]",
                "while true; do curl -s -o /dev/null --max-time 2 -w '%{http_code}\\n' -H \"Authorization: Bearer $(cat "
                        + NodeAgent.TOKEN + ")\" \"$DRA_METADATA_URL/claims/gpu-claim/gpu\"; sleep 0.1; done")).create());
        Eventually.await(PROPAGATION, () -> NODE.pods().log(looping, AppPods.APP),
                lines -> lines.stream().filter(l -> l.text().equals("200")).count() >= 5, "the app answered");
        Pod pod = agent.pod();
        int restarts = AppPods.status(pod, "agent").getRestartCount();
        long pid = NODE.pods().hostPid(AppPods.status(pod, "agent").getContainerID().replaceFirst("^containerd://", ""));
        Instant killed = Instant.now();
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        Eventually.await(Duration.ofSeconds(90), () -> NODE.pods().get(pod),
                p -> AppPods.status(p, "agent").getRestartCount() > restarts && AppPods.ready(p),
                "the agent's container restarted in its pod, and ready");
        List<TimedLine> lines = Eventually.await(PROPAGATION, () -> NODE.pods().log(looping, AppPods.APP),
                log -> log.stream().anyMatch(l -> l.time().isAfter(killed) && l.text().equals("200")),
                "the app answered after the kill");
        Instant lastBefore = null;
        Instant firstAfter = null;
        int failed = 0;
        for (TimedLine line : lines) {
            boolean answered = line.text().equals("200");
            if (line.time().isBefore(killed)) {
                lastBefore = answered ? line.time() : lastBefore;
            } else if (answered && firstAfter == null) {
                firstAfter = line.time();
            } else if (!answered && firstAfter == null) {
                failed++;
            }
        }
        System.err.printf("[node] agent killed (SIGKILL): restarted in its pod; the app's gap between answers %d ms, "
                + "%d requests failed in it%n", Duration.between(lastBefore, firstAfter).toMillis(), failed);
        assertEquals(restarts + 1, AppPods.status(agent.pod(), "agent").getRestartCount(), "restarted once");
    }
}
