package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.Helm;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetStatus;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Node mode installed with the chart on the real node, rolled out three times under running pods with no failed
 * request: {@value #PODS} pods, sharing one claim, whose apps each send {@value #GETS_PER_SECOND} GETs a second on new
 * connections and as many on a kept-alive one, and hold a long poll, through three {@code helm upgrade}s that change
 * the agent's pod template. Each rollout starts the new agent beside the old one (a surge), which is stopped once the
 * new one is ready; the Service sends new connections to the new one. Every answer any app got is {@code 200}; the
 * longest gap in each pod's answers is reported. (A killed agent's gap: AgentOnNodeIT.)
 */
class NodeRolloutOnNodeIT {

    static final int PODS = 20;
    static final int GETS_PER_SECOND = 5;
    private static final int UPGRADES = 3;
    private static final Duration ROLLED_OUT = Duration.ofSeconds(120);

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();

    private static final List<LoopingApp> APPS = new ArrayList<>();
    private static String namespace;

    @Test
    void threeHelmUpgradesUnderTwentyPodsFailNoRequest() throws Exception {
        // The chart's node mode has the names of the shipped injection: only one of them at a time.
        NODE.pods().removeInjection();
        NODE.client().resource(new NamespaceBuilder().withNewMetadata().withName(AppPods.RELEASE)
                .withLabels(Map.of("pod-security.kubernetes.io/enforce", "privileged")).endMetadata().build())
                .createOr(NonDeletingOperation::update);
        String image = NODE.sidecarImage();
        Helm helm = Helm.forCluster(NODE.node().kubeconfig);
        List<String> install = List.of(AppPods.RELEASE, Helm.CHART.toString(), "--namespace", AppPods.RELEASE,
                "--set", "mode=node", "--set", "image.repository=" + image.substring(0, image.lastIndexOf(':')),
                "--set", "image.tag=" + image.substring(image.lastIndexOf(':') + 1));
        helm.succeed(concat(List.of("install"), install).toArray(String[]::new));
        awaitRolledOut(1);

        namespace = NODE.restrictedNamespace("rollout", AppPods.optIn());
        NODE.create(namespace, ClaimManifests.GPU_CLAIM);
        APPS.addAll(LoopingApp.startNodeModePods(NODE, namespace, "app", PODS, GETS_PER_SECOND));
        List<String> before = APPS.stream().map(app -> LoopingApp.containers(app.now())).toList();

        long from = LoopingApp.wallNanos();
        for (int upgrade = 1; upgrade <= UPGRADES; upgrade++) {
            long started = System.nanoTime();
            helm.succeed(concat(List.of("upgrade"), install, List.of("--set-string",
                    "settings.DRA_ROLLOUT=" + upgrade)).toArray(String[]::new));
            awaitRolledOut(upgrade + 1);
            System.err.printf("[node] helm upgrade %d rolled out in %d ms%n", upgrade,
                    (System.nanoTime() - started) / 1_000_000);
        }
        // Answers already sent to the old agent when it stopped have had their time to come back.
        long end = LoopingApp.wallNanos();
        for (LoopingApp app : APPS) {
            app.awaitAnswersFor(end, Duration.ofSeconds(1));
        }

        List<LoopingApp.Seen> seen = APPS.stream().map(app -> app.seenSince(from)).toList();
        long longest = seen.stream().mapToLong(LoopingApp.Seen::longestGapMs).max().orElseThrow();
        int answers = seen.stream().mapToInt(LoopingApp.Seen::answers).sum();
        System.err.printf("[node] %d helm upgrades under %d pods: %d answers, %d not 200; longest gap per pod %s ms"
                + " (longest %d ms)%n", UPGRADES, PODS, answers,
                seen.stream().mapToInt(s -> s.notOk().size()).sum(),
                seen.stream().map(s -> Long.toString(s.longestGapMs())).toList(), longest);
        // The gaps are reported, not bounded: they measure the machine's load as much as the rollout (a request
        // that hung would end as a failure, status 0, within the app's 40 s timeout).
        for (int i = 0; i < PODS; i++) {
            assertEquals(List.of(), seen.get(i).notOk(), "app-" + i + ": every answer 200: " + seen.get(i));
            assertEquals(before.get(i), LoopingApp.containers(APPS.get(i).now()), "app-" + i + ": no restart");
        }
    }

    /**
     * Waits until the DaemonSet's {@code generation}th template runs on the node, ready, and no other agent pod is
     * left (the old one terminated).
     */
    private static void awaitRolledOut(long generation) {
        Eventually.await(ROLLED_OUT, () -> {
            DaemonSet daemonSet = NODE.client().apps().daemonSets().inNamespace(AppPods.RELEASE)
                    .withName(AppPods.RELEASE).get();
            List<Pod> agents = NODE.client().pods().inNamespace(AppPods.RELEASE).list().getItems();
            // The API server leaves out the counts that are 0.
            DaemonSetStatus status = daemonSet.getStatus();
            return status != null && status.getObservedGeneration() != null
                    && status.getObservedGeneration() >= generation
                    && Integer.valueOf(1).equals(status.getUpdatedNumberScheduled())
                    && Integer.valueOf(1).equals(status.getNumberAvailable())
                    && agents.size() == 1 && AppPods.ready(agents.get(0));
        }, Boolean::booleanValue, "the agent's DaemonSet rolled out to its template " + generation);
    }

    @SafeVarargs
    private static List<String> concat(List<String>... lists) {
        List<String> all = new ArrayList<>();
        for (List<String> list : lists) {
            all.addAll(list);
        }
        return all;
    }

    @AfterAll
    static void uninstall() throws Exception {
        APPS.forEach(LoopingApp::close);
        if (namespace != null) {
            NODE.client().namespaces().withName(namespace).delete();
        }
        // The node tests after this one inject the image imported into the node, as deploy/kubernetes/injection names it.
        NODE.pods().uninstallChartAndApplyInjection();
    }
}
