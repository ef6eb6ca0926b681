package dev.dra.sidecar.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.dra.sidecar.testsupport.FileTrees;
import dev.dra.sidecar.testsupport.InjectionParameters;
import dev.dra.sidecar.testsupport.Kustomize;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The manifests in deploy/kubernetes parse strictly as Kubernetes types, and the pods they describe (as
 * written and as rendered by kustomize) follow the sidecar rules of {@link SidecarPodRules}.
 */
class DeployManifestsTest {

    private static final Path KUBERNETES = Path.of("deploy", "kubernetes");

    /**
     * Every *.yaml/*.yml under deploy/ except kustomization files (kustomize itself parses those strictly) and the
     * injections (sidecar mode's, and node mode's policy and bindings), whose MutatingAdmissionPolicy (admissionregistration.k8s.io/v1) the fabric8 model does not have
     * yet: a real API server judges it (kube.ManifestsAdmissionIT, where an unknown field comes back as a warning and
     * fails the test). The Helm chart (deploy/helm) is templates, not manifests: its rendering equals the injection's
     * (HelmChartIT) and the real API server installs it (kube.HelmChartInstallIT).
     */
    static List<Path> manifestFiles() throws IOException {
        try (Stream<Path> files = Files.walk(Path.of("deploy"))) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> !f.startsWith(KUBERNETES.resolve("injection")))
                    .filter(f -> !f.equals(KUBERNETES.resolve("node/policy.yaml")) && !f.equals(KUBERNETES.resolve("node/binding.yaml")))
                    .filter(f -> !f.startsWith(Path.of("deploy", "helm")))
                    .filter(f -> f.getFileName().toString().matches(".*\\.ya?ml"))
                    .filter(f -> !f.getFileName().toString().matches("kustomization\\.ya?ml"))
                    .sorted().toList();
        }
    }

    private static List<HasMetadata> parse(Path file) throws IOException {
        return StrictKubernetesYaml.parseFile(file);
    }

    @Test
    void everyManifestParsesStrictlyAsKubernetesTypes() throws IOException {
        List<Path> files = manifestFiles();
        assertTrue(files.size() >= 8, "manifests found: " + files);
        for (Path file : files) {
            List<HasMetadata> objects = parse(file);
            assertFalse(objects.isEmpty(), file + " holds no object");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // misspelled on the sidecar container (indented, so that the comment mentioning it is not hit)
        "          restartPolicy: Always|          restartPolicty: Always",
        // misspelled deep inside the security context
        "readOnlyRootFilesystem: true|readOnlyRootFileSystem: true",
        // a field that exists elsewhere, but not on a probe's httpGet
        "path: /q/health/live|pathh: /q/health/live",
        // a pod field put on the container level
        "          restartPolicy: Always|          restartPolicy: Always\n          resourceClaims: []",
    })
    void aMisspelledFieldFailsTheParse(String replacement) throws IOException {
        String[] fromTo = replacement.split("\\|", 2);
        String original = Files.readString(KUBERNETES.resolve("base/deployment.yaml"));
        assertTrue(original.contains(fromTo[0]), "the test text must occur: " + fromTo[0]);
        String broken = original.replaceFirst(java.util.regex.Pattern.quote(fromTo[0]),
                java.util.regex.Matcher.quoteReplacement(fromTo[1]));
        IOException e = assertThrows(IOException.class, () -> StrictKubernetesYaml.parseAll(broken, "broken.yaml"));
        assertTrue(e.getMessage().contains("Unrecognized field"), e.getMessage());
    }

    @Test
    void aMisspelledFieldInAResourceClaimFailsTheParse() throws IOException {
        String broken = Files.readString(KUBERNETES.resolve("base/resourceclaim.yaml"))
                .replace("deviceClassName:", "deviceClass:");
        assertThrows(IOException.class, () -> StrictKubernetesYaml.parseAll(broken, "broken.yaml"));
    }

    @Test
    void anUnknownKindFails() {
        assertThrows(IOException.class, () -> StrictKubernetesYaml.parseAll(
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: x\n", "secret.yaml"));
    }

    @Test
    void baseAsWrittenFollowsTheRules() throws IOException {
        List<HasMetadata> objects = new ArrayList<>();
        for (Path file : manifestFiles()) {
            if (file.startsWith(KUBERNETES.resolve("base"))) {
                objects.addAll(parse(file));
            }
        }
        checkRendering(objects, "base (source)", 1);
        assertEquals(Set.of("gpu-claim"), names(objects, ResourceClaim.class));
        assertEquals(Set.of("gpu-template"), names(objects, ResourceClaimTemplate.class));
    }

    @Test
    void componentPatchCarriesTheWholeSidecarButTheClaims() throws IOException {
        List<HasMetadata> patch = parse(KUBERNETES.resolve("components/sidecar/sidecar.yaml"));
        Deployment deployment = (Deployment) patch.get(0);
        SidecarPodRules.checkSidecarContainer(deployment.getSpec().getTemplate().getSpec(), "component patch");
        assertEquals(null, deployment.getSpec().getTemplate().getSpec().getSecurityContext(),
                "the component must not change the app's pod-level security context");
    }

    /** The base's sidecar is the component's: the same hook, probes, resources and security, but for its claims. */
    @Test
    void theBasesSidecarIsTheComponentsButForTheClaims() throws IOException {
        var base = SidecarPodRules.sidecar(((Deployment) parse(KUBERNETES.resolve("base/deployment.yaml")).get(0))
                .getSpec().getTemplate().getSpec(), "base");
        var component = SidecarPodRules.sidecar(((Deployment) parse(KUBERNETES.resolve("components/sidecar/sidecar.yaml"))
                .get(0)).getSpec().getTemplate().getSpec(), "component");
        assertEquals(component.getLifecycle(), base.getLifecycle(), "postStart hook");
        assertEquals(component.getLivenessProbe(), base.getLivenessProbe(), "liveness probe");
        assertEquals(component.getSecurityContext(), base.getSecurityContext(), "security context");
        assertEquals(component.getResources().getLimits(), base.getResources().getLimits(), "limits");
        assertEquals(component.getResources().getRequests(), base.getResources().getRequests(), "requests");
        assertEquals(component.getPorts(), base.getPorts(), "ports");
        assertEquals(component.getImage(), base.getImage(), "image");
    }

    @Test
    void baseRendersAndFollowsTheRules() throws Exception {
        List<HasMetadata> rendered = render(KUBERNETES.resolve("base"));
        checkRendering(rendered, "base (rendered)", 1);
        assertTrue(rendered.stream().allMatch(o -> o.getMetadata().getNamespace() != null
                || o.getKind().equals("Namespace")), "every namespaced object gets the namespace");
    }

    @Test
    void componentOverlayRendersAndFollowsTheRules() throws Exception {
        List<HasMetadata> rendered = render(KUBERNETES.resolve("overlays/component-example"));
        checkRendering(rendered, "component-example (rendered)", 1);
        Deployment app = SidecarPodRules.deployments(rendered).get(0);
        var pod = app.getSpec().getTemplate().getSpec();
        assertEquals(List.of("server"), pod.getContainers().stream().map(c -> c.getName()).toList(),
                "the app's own containers are kept");
        assertEquals(Set.of("ghcr.io/example/dra-metadata-sidecar:" + dev.dra.sidecar.testsupport.ProjectVersion.get()),
                Set.of(SidecarPodRules.sidecar(pod, "overlay").getImage()));
    }

    /**
     * deploy/kubernetes/README.md's way to set one's own image, with the tool it names (kubectl): its {@code images:}
     * entry, put into a copy of the base in place of the base's own, renders the sidecar with that image.
     */
    @Test
    void theReadmesImagesEntrySetsTheImage() throws Exception {
        String readme = Files.readString(KUBERNETES.resolve("README.md"));
        Matcher entry = Pattern.compile("```yaml\n(images:\n.*?newName: (\\S+)\n\\s*newTag: \"([^\"]+)\"\n)```",
                Pattern.DOTALL).matcher(readme);
        assertTrue(entry.find(), "deploy/kubernetes/README.md shows an images: entry with newName and newTag");
        Path copy = FileTrees.copyToTemporaryDirectory(KUBERNETES.resolve("base").toString(), "dra-base-image");
        try {
            Path kustomization = copy.resolve("kustomization.yaml");
            String own = Files.readString(kustomization);
            assertTrue(own.contains("\nimages:\n"), own);
            Files.writeString(kustomization, own.substring(0, own.indexOf("\nimages:\n") + 1) + entry.group(1));
            Deployment deployment = SidecarPodRules.deployments(render(copy)).get(0);
            assertEquals(entry.group(2) + ":" + entry.group(3),
                    SidecarPodRules.sidecar(deployment.getSpec().getTemplate().getSpec(), "base with the README's image").getImage());
        } finally {
            FileTrees.deleteTree(copy);
        }
    }

    /**
     * deploy/kubernetes/README.md's patch of the injection's parameters, in an overlay of the injection, replaces
     * them: the policy's first variable is the parameters the patch names.
     */
    @Test
    void theReadmesPatchSetsTheInjectionsParameters(@TempDir Path overlay) throws Exception {
        String readme = Files.readString(KUBERNETES.resolve("README.md"));
        Matcher patch = Pattern.compile("```yaml\n(patches:\n  - target: \\{kind: MutatingAdmissionPolicy.*?)```",
                Pattern.DOTALL).matcher(readme);
        assertTrue(patch.find(), "deploy/kubernetes/README.md shows a patch of the injection policy");
        Files.writeString(overlay.resolve("kustomization.yaml"), "resources:\n  - "
                + overlay.relativize(KUBERNETES.resolve("injection").toAbsolutePath()) + "\n" + patch.group(1));
        JsonNode policy = null;
        for (JsonNode object : new YAMLMapper().readerFor(JsonNode.class).<JsonNode>readValues(Kustomize.render(overlay)).readAll()) {
            policy = object.path("kind").asText().equals("MutatingAdmissionPolicy") ? object : policy;
        }
        assertEquals(Map.of("image", "registry.example.com/dra-metadata-sidecar@sha256:<64 hex>", "cpu-request", "50m",
                "memory-request", "96Mi", "memory-limit", "160Mi"), InjectionParameters.of(policy));
    }

    @Test
    void kustomizeRejectsAMisspelledKustomizationField(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("kustomization.yaml"),
                "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresourcez:\n  - a.yaml\n");
        Kustomize.Result result = Kustomize.run(dir);
        assertNotEquals(0, result.exitCode(), "kustomize must reject unknown kustomization fields");
    }

    private static void checkRendering(List<HasMetadata> objects, String where, int expectedDeployments) {
        List<Deployment> deployments = SidecarPodRules.deployments(objects);
        assertEquals(expectedDeployments, deployments.size(), where + ": deployments");
        for (Deployment deployment : deployments) {
            SidecarPodRules.checkPod(deployment.getSpec().getTemplate().getSpec(), objects,
                    where + " " + deployment.getMetadata().getName());
        }
    }

    private static Set<String> names(List<HasMetadata> objects, Class<? extends HasMetadata> type) {
        return objects.stream().filter(type::isInstance).map(o -> o.getMetadata().getName())
                .collect(Collectors.toSet());
    }

    static List<HasMetadata> render(Path dir) throws Exception {
        List<HasMetadata> objects = StrictKubernetesYaml.parseAll(Kustomize.render(dir), "kustomize " + dir);
        assertFalse(objects.isEmpty(), "kustomize " + dir + " rendered nothing");
        return objects;
    }

}
