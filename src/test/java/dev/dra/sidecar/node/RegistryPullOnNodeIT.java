package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dra.sidecar.image.PodLikeContainer;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.Helm;
import dev.dra.sidecar.testsupport.Release;
import dev.dra.sidecar.testsupport.TestRegistry;
import dev.dra.sidecar.testsupport.Unavailable;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Installed as a user gets it: the release script publishes the image and the chart to the tests' private registry
 * (TLS from the run's CA, basic authentication), the chart is installed from there with {@code helm install oci://...
 * --version} and no values, and containerd on the real node pulls the injected sidecar by digest with the app pod's
 * {@code imagePullSecrets}, the only credentials that apply to a pod that is not ours. The app reads its metadata as
 * the Go reader decodes it. A pod without the secret gets the pull failure the docs describe.
 */
class RegistryPullOnNodeIT {

    @RegisterExtension
    static final KubeNodeExtension NODE = new KubeNodeExtension();
    private static final String SECRET = "registry-credentials";
    private static final Path STATE = Path.of("target/registry-pull");
    private static TestRegistry registry;
    private static Release.Published release;

    @BeforeAll
    static void publishAndInstallFromTheRegistry() throws Exception {
        try {
            registry = TestRegistry.start("the registry pull test", STATE.resolve("registry"));
        } catch (Unavailable e) {
            Assumptions.abort(e.getMessage());
        }
        // containerd trusts the run's CA for this registry alone (hosts.toml under its registry config_path).
        Path hosts = Files.createDirectories(Path.of(NODE.node().env.get("registry_hosts_dir"), registry.host));
        Files.writeString(hosts.resolve("hosts.toml"), """
                server = "https://%1$s"
                [host."https://%1$s"]
                  capabilities = ["pull", "resolve"]
                  ca = "%2$s"
                """.formatted(registry.host, registry.ca));
        PodLikeContainer.ensureBaseImages();
        // Unsigned here: ReleaseIT checks the signatures; this test is the pull path.
        release = Release.run("the registry pull test", registry, STATE.resolve("release"), false);
        NODE.pods().removeInjection();
        Helm helm = Helm.forCluster(NODE.node().kubeconfig);
        helm.succeed("install", AppPods.RELEASE, release.chart(), "--version", release.version(),
                "--namespace", AppPods.RELEASE, "--create-namespace",
                "--registry-config", registry.authFile.toString(), "--ca-file", registry.ca.toString());
        NODE.pods().awaitInjecting(release.image());
    }

    @AfterAll
    static void stop() throws Exception {
        // The node tests after this one inject the image imported into the node, as deploy/kubernetes/injection names it.
        NODE.pods().uninstallChartAndApplyInjection();
        if (registry != null) {
            registry.close();
        }
    }

    private Pod app(String namespace, String name, boolean withSecret) {
        NODE.create(namespace, ClaimManifests.GPU_CLAIM);
        Pod pod = NODE.pods().app(namespace, name, List.of("/bin/sh", "-c",
                "curl -fsS localhost:8089/claims/gpu-claim/gpu; echo; exec sleep 3600"), AppPods.claim("gpu-claim", "gpu-claim"));
        if (withSecret) {
            pod.getSpec().setImagePullSecrets(List.of(new LocalObjectReference(SECRET)));
        }
        return NODE.pods().createInjected(pod);
    }

    @Test
    void theInjectedSidecarIsPulledByDigestWithTheAppPodsSecretAndServesItsClaims() throws Exception {
        String namespace = NODE.restrictedNamespace("pulled", AppPods.optIn());
        NODE.client().resource(new SecretBuilder().withNewMetadata().withName(SECRET).endMetadata()
                .withType("kubernetes.io/dockerconfigjson")
                .withData(Map.of(".dockerconfigjson", Base64.getEncoder().encodeToString(
                        registry.dockerConfigJson().getBytes(StandardCharsets.UTF_8)))).build())
                .inNamespace(namespace).create();
        assertFalse(NodeImages.ctr(NODE.node(), "images", "ls", "-q").contains(release.digest()),
                "the released image is not in the node before the pod asks for it");

        Pod created = app(namespace, "pulled", true);
        assertEquals(release.image(), AppPods.container(created, AppPods.SIDECAR).getImage(),
                "the chart installed with no values injects the released image, pinned by digest");
        Pod running = NODE.pods().awaitAppRunning(created);

        ContainerStatus sidecar = AppPods.status(running, AppPods.SIDECAR);
        assertTrue(sidecar.getImageID().endsWith("@" + release.digest()), "containerd ran the digest: " + sidecar.getImageID());
        assertTrue(NodeImages.ctr(NODE.node(), "images", "ls", "-q").contains(release.image()),
                "containerd pulled the image under its digest reference");
        Event pulled = awaitEvent(namespace, "pulled", "Pulled", "Successfully pulled image");
        assertTrue(pulled.getMessage().contains(release.image()), pulled.getMessage());

        String served = NODE.pods().awaitLog(running, AppPods.APP, 1).get(0).text();
        JsonNode expected = GoReader.withoutGeneration(NODE.goReader().decode(NODE.pods().hostFile(namespace, "gpu-claim", "gpu")));
        assertEquals(expected, NODE.goReader().asGoSeesIt(served), "claims/gpu-claim/gpu as the Go reader decodes the host file");
    }

    @Test
    void aPodWithoutTheSecretCannotPullTheSidecarAndSaysSo() throws Exception {
        String namespace = NODE.restrictedNamespace("unauthorized", AppPods.optIn());
        app(namespace, "unauthorized", false);
        Event failed = awaitEvent(namespace, "unauthorized", "Failed", "Failed to pull image");
        System.err.println("the event of a pull without the secret: " + failed.getReason() + ": " + failed.getMessage());
        assertTrue(failed.getMessage().startsWith("Failed to pull image \"" + release.image() + "\""), failed.getMessage());
        assertTrue(failed.getMessage().contains("pull access denied, repository does not exist or may require "
                + "authorization: authorization failed: no basic auth credentials"), failed.getMessage());
        Pod waiting = Eventually.await(Duration.ofSeconds(60),
                () -> NODE.client().pods().inNamespace(namespace).withName("unauthorized").get(),
                p -> {
                    ContainerStatus s = AppPods.status(p, AppPods.SIDECAR);
                    return s != null && s.getState().getWaiting() != null
                            && List.of("ErrImagePull", "ImagePullBackOff").contains(s.getState().getWaiting().getReason());
                }, "the sidecar waiting in ErrImagePull or ImagePullBackOff");
        assertFalse(AppPods.running(waiting, AppPods.APP), "the app does not start without its sidecar");
    }

    /** The first event of {@code pod} with {@code reason} whose message starts with {@code message}, once there. */
    private static Event awaitEvent(String namespace, String pod, String reason, String message) {
        return Eventually.await(Duration.ofSeconds(90),
                () -> NODE.client().v1().events().inNamespace(namespace).list().getItems().stream()
                        .filter(e -> pod.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason())
                                && e.getMessage() != null && e.getMessage().startsWith(message))
                        .findFirst().orElse(null),
                e -> e != null, "the event " + reason + " (" + message + "...) of pod " + pod);
    }
}
