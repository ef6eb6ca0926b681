package dev.dra.sidecar.kube;

import static dev.dra.sidecar.kube.InjectionPods.app;
import static dev.dra.sidecar.kube.InjectionPods.direct;
import static dev.dra.sidecar.kube.InjectionPods.pod;
import static dev.dra.sidecar.kube.InjectionPods.template;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.Kustomize;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The injection (deploy/kubernetes/injection) on a real API server: which pods get the sidecar, what they get, and
 * which stay as they are. Every pod is created in a namespace that enforces Restricted, and no request may get a
 * warning.
 */
class SidecarInjectionIT {

    @RegisterExtension
    static final KubeApiServerExtension API = new KubeApiServerExtension();

    private static final String EXPECTED_CLAIMS = "DRA_METADATA_EXPECTED_CLAIMS";
    private static Injection injection;

    private String namespace;

    @BeforeAll
    static void applyInjection() throws Exception {
        injection = new Injection(API);
    }

    @BeforeEach
    void injectionEnforcedAndAFreshNamespace() throws Exception {
        namespace = injection.enforcedInAFreshNamespace("injection");
    }

    private Pod create(Pod pod) {
        return create(namespace, pod);
    }

    private Pod create(String in, Pod pod) {
        Pod created = API.client().pods().inNamespace(in).resource(pod).create();
        assertEquals(List.of(), API.warnings(), "the API server's warnings");
        return created;
    }

    private static Pod optedIn(Pod pod) {
        return new PodBuilder(pod).editMetadata().addToLabels(Injection.OPT_IN, "true").endMetadata().build();
    }

    private static List<String> claims(Container container) {
        return container.getResources().getClaims().stream()
                .map(c -> c.getRequest() == null ? c.getName() : c.getName() + "/" + c.getRequest()).toList();
    }

    private static String env(Container container, String name) {
        return container.getEnv().stream().filter(e -> e.getName().equals(name)).map(EnvVar::getValue).findFirst()
                .orElse(null);
    }

    private static Container injected(Pod created) {
        Container first = created.getSpec().getInitContainers().get(0);
        assertEquals(Pods.SIDECAR, first.getName(), "the sidecar is the first init container");
        assertEquals("Always", first.getRestartPolicy(), "a native sidecar");
        return first;
    }

    @Test
    void anOptedInPodWithAClaimGetsTheSidecarFirstListingTheClaim() {
        Pod created = create(optedIn(InjectionPods.withClaims("one-claim", direct("gpu", "gpu-claim"))));
        Container sidecar = injected(created);
        assertEquals(List.of("gpu"), claims(sidecar));
        assertEquals("claims/gpu-claim", env(sidecar, EXPECTED_CLAIMS));
        assertEquals(List.of("app"), created.getSpec().getContainers().stream().map(Container::getName).toList());
    }

    /**
     * The injected container is the Kustomize component's: same image, ports, hook, probes, resources and security
     * context, and no volume, compared on the pods the API server stores (both defaulted alike); only the claims and
     * the expected claims, which the component leaves to the overlay, are the pod's own.
     */
    @Test
    void theInjectedSidecarIsTheComponentsSidecar() throws Exception {
        Deployment example = Pods.deployments(API.load(Kustomize.render(
                Path.of("deploy/kubernetes/overlays/component-example")))).get(0);
        Pod fromComponent = create(Pods.fromTemplate(example));
        Pod asTheApp = new PodBuilder(Pods.fromTemplate(example)).editSpec().withInitContainers(List.of())
                .withVolumes(List.of()).endSpec().build();
        Pod fromInjection = create(optedIn(asTheApp));

        Container component = Pods.sidecar(fromComponent);
        Container injectedSidecar = injected(fromInjection);
        assertEquals(claims(component), claims(injectedSidecar), "the same claims as the overlay lists");
        assertEquals(env(component, EXPECTED_CLAIMS).replace("template-claims/gpu/gpu", "template-claims/gpu"),
                env(injectedSidecar, EXPECTED_CLAIMS),
                "the same claim expected (the overlay knows the request name, the injection does not)");
        assertEquals(withoutClaims(component), withoutClaims(injectedSidecar));
        assertEquals(List.of(), ownVolumes(fromComponent), "the component adds no volume");
        assertEquals(List.of(), ownVolumes(fromInjection), "nor does the injection");
    }

    /** The pod's volumes but the service account token's. */
    private static List<String> ownVolumes(Pod pod) {
        return pod.getSpec().getVolumes().stream().map(Volume::getName).filter(n -> !n.startsWith("kube-api-access-"))
                .toList();
    }

    /** The container without its claims, expected claims and service account token (its volume name is random). */
    private static Container withoutClaims(Container container) {
        Container copy = new ContainerBuilder(container)
                .withEnv(container.getEnv().stream().filter(e -> !e.getName().equals(EXPECTED_CLAIMS)).toList())
                .withVolumeMounts(container.getVolumeMounts().stream()
                        .filter(m -> !m.getName().startsWith("kube-api-access-")).toList())
                .build();
        copy.getResources().setClaims(List.of());
        return copy;
    }

    /**
     * "Started" means "the app's metadata is here, or cannot come": the packaged sidecar, run as the injected
     * container on the files the kubelet mounts for it, starts when every claim of the pod has its metadata; a claim
     * with no file mounted for it (whose driver writes none) cannot get one later, so it starts then too, and its
     * startup check says which claim is absent and both causes.
     */
    @Test
    void theInjectedSidecarStartsOnceEveryClaimsMetadataIsThereOrCannotCome(@TempDir Path complete,
            @TempDir Path incomplete) throws Exception {
        Pod sample = create(optedIn(InjectionPods.withClaims("sample", direct("gpu", "gpu-claim"),
                template("my-gpu", "gpu-template"))));
        KubeletMounts.assertStartupCheck(sample, complete, 200, "\"template-claims/my-gpu\": \"ok\"");

        Pod withoutMetadata = create(optedIn(InjectionPods.withClaims("tpu", direct("gpu", "gpu-claim"),
                direct("tpu", "tpu-claim"))));
        KubeletMounts.assertStartupCheck(withoutMetadata, incomplete, 200,
                "\"claims/tpu-claim\": \"absent: no metadata for claim tpu-claim (no file is mounted for it at "
                + incomplete.resolve("resourceclaims/tpu-claim") + "): either the sidecar container does not list "
                + "claim tpu-claim in its own resources.claims");
    }

    @Test
    void directAndTemplateClaimsAreAllListedAndExpectedNarrowedOnlyWhereTheAppNarrows() {
        Pod pod = pod("mixed",
                List.of(direct("gpu", "gpu-claim"), template("my-gpu", "gpu-template"), direct("nic", "net-claim"),
                        template("fpga", "fpga-template")),
                List.of(),
                List.of(app("trainer", "gpu", "my-gpu/gpu", "nic/rdma"),
                        app("logger", "my-gpu/gpu", "nic/eth", "fpga/fpga"),
                        app("monitor", "fpga")));
        Container sidecar = injected(create(optedIn(pod)));
        // gpu: used whole; my-gpu: only ever narrowed to gpu; nic: narrowed to two requests; fpga: once whole.
        assertEquals(List.of("gpu", "my-gpu/gpu", "nic/rdma", "nic/eth", "fpga"), claims(sidecar));
        assertEquals("claims/gpu-claim,template-claims/my-gpu/gpu,claims/net-claim/rdma,claims/net-claim/eth,"
                + "template-claims/fpga", env(sidecar, EXPECTED_CLAIMS));
    }

    @Test
    void twentyClaimsAreAllListedAndExpected() {
        List<PodResourceClaim> claims = IntStream.range(0, 20).mapToObj(i -> i % 2 == 0
                ? direct("claim-" + i, "resource-claim-" + i) : template("claim-" + i, "template-" + i)).toList();
        Pod created = create(optedIn(InjectionPods.withClaims("twenty", claims.toArray(PodResourceClaim[]::new))));
        Container sidecar = injected(created);
        assertEquals(claims.stream().map(PodResourceClaim::getName).toList(), claims(sidecar));
        assertEquals(IntStream.range(0, 20).mapToObj(i -> i % 2 == 0
                        ? "claims/resource-claim-" + i : "template-claims/claim-" + i).collect(Collectors.joining(",")),
                env(sidecar, EXPECTED_CLAIMS));
    }

    @Test
    void thePodsOwnInitContainersKeepTheirOrderAfterTheSidecar() {
        Container setup = app("setup", "gpu");
        Container proxy = new ContainerBuilder(app("proxy")).withRestartPolicy("Always").build();
        Container migrate = app("migrate");
        Pod pod = pod("own-init", List.of(direct("gpu", "gpu-claim")), List.of(setup, proxy, migrate),
                List.of(app("app", "gpu")));
        Pod created = create(optedIn(pod));
        injected(created);
        assertEquals(List.of(Pods.SIDECAR, "setup", "proxy", "migrate"),
                created.getSpec().getInitContainers().stream().map(Container::getName).toList());
    }

    @Test
    void thePodsOwnVolumesAreKeptAndNoneAdded() {
        Pod pod = new PodBuilder(InjectionPods.withClaims("volumes", direct("gpu", "gpu-claim"))).editSpec()
                .addNewVolume().withName("cache").withNewEmptyDir().endEmptyDir().endVolume().endSpec().build();
        Pod created = create(optedIn(pod));
        injected(created);
        assertEquals(List.of("cache"), created.getSpec().getVolumes().stream().map(Volume::getName).toList());
    }

    @Test
    void everyPodOfALabelledNamespaceWithClaimsGetsTheSidecar() {
        String labelled = API.restrictedNamespace("injection-labelled", Map.of(Injection.OPT_IN, "true"));
        Pod created = create(labelled, InjectionPods.withClaims("by-namespace", template("my-gpu", "gpu-template")));
        assertEquals("template-claims/my-gpu", env(injected(created), EXPECTED_CLAIMS));
    }

    @Test
    void aLabelledPodInALabelledNamespaceGetsTheSidecarOnce() {
        String labelled = API.restrictedNamespace("injection-both", Map.of(Injection.OPT_IN, "true"));
        Pod created = create(labelled, optedIn(InjectionPods.withClaims("both", direct("gpu", "gpu-claim"))));
        assertEquals(List.of(Pods.SIDECAR), created.getSpec().getInitContainers().stream().map(Container::getName)
                .toList());
    }

    /**
     * A pod that sets nothing on the pod level (each container meets Restricted by itself) is admitted under
     * Restricted with the sidecar: the injected container brings its own Restricted settings.
     */
    @Test
    void anInjectedPodIsAdmittedInARestrictedNamespaceOnTheSidecarsOwnSettings() {
        Container app = new ContainerBuilder(app("app", "gpu")).editSecurityContext().withRunAsNonRoot(true)
                .withRunAsUser(1001L).withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                .endSecurityContext().build();
        Pod pod = new PodBuilder(pod("container-level", List.of(direct("gpu", "gpu-claim")), List.of(), List.of(app)))
                .editSpec().withSecurityContext(null).endSpec().build();
        injected(create(optedIn(pod)));
    }

    @Test
    void aPodWithoutTheOptInIsUnchanged() {
        Pod pod = InjectionPods.withClaims("not-opted-in", direct("gpu", "gpu-claim"));
        Injection.assertUnchanged(pod, create(pod));
    }

    @Test
    void anOptedInPodWithoutClaimsIsUnchanged() {
        Pod pod = optedIn(pod("no-claims", List.of(), List.of(), List.of(app("app"))));
        Injection.assertUnchanged(pod, create(pod));
    }

    @Test
    void theOptOutAnnotationWinsOverTheLabels() {
        String labelled = API.restrictedNamespace("injection-opt-out", Map.of(Injection.OPT_IN, "true"));
        Pod pod = new PodBuilder(optedIn(InjectionPods.withClaims("opted-out", direct("gpu", "gpu-claim"))))
                .editMetadata().addToAnnotations(Injection.OPT_IN, "false").endMetadata().build();
        Injection.assertUnchanged(pod, create(labelled, pod));
    }

    /** A pod that already has the sidecar (by hand, from the component, or injected before) is left alone. */
    @Test
    void aPodThatAlreadyHasTheSidecarIsUnchanged() {
        Pod injectedOnce = create(optedIn(InjectionPods.withClaims("first", direct("gpu", "gpu-claim"))));
        Pod again = new PodBuilder(injectedOnce).withNewMetadata().withName("again")
                .withLabels(injectedOnce.getMetadata().getLabels()).endMetadata().withStatus(null).build();
        Pod created = create(again);
        assertEquals(injectedOnce.getSpec().getInitContainers(), created.getSpec().getInitContainers());
        assertEquals(injectedOnce.getSpec().getVolumes(), created.getSpec().getVolumes());
    }

    @Test
    void withThePolicyAndBindingDeletedPodsAreCreatedUntouched() throws Exception {
        for (HasMetadata object : injection.objects()) {
            if (object.getKind().startsWith("MutatingAdmissionPolicy")) {
                API.client().resource(object).delete();
            }
        }
        injection.awaitNotEnforced();
        Pod pod = optedIn(InjectionPods.withClaims("no-policy", direct("gpu", "gpu-claim")));
        Injection.assertUnchanged(pod, create(pod));
    }

    /**
     * Reinstalled with other parameters, the injection injects those: they are written into the policy. (A parameter
     * object would not do: once no binding named a ConfigMap parameter, this API server would go on injecting the
     * values it saw last.)
     */
    @Test
    void reinstalledWithOtherParametersItInjectsThose() throws Exception {
        injection.remove();
        injection.awaitNotEnforced();
        injection.apply();
        injection.editParameters(p -> p.put("image", "registry.example.com/sidecar:reinstalled"));
        Container sidecar = eventuallyInjected(optedIn(InjectionPods.withClaims("reinstalled", direct("gpu", "gpu-claim"))),
                c -> c.getImage().equals("registry.example.com/sidecar:reinstalled"));
        assertEquals(List.of(EXPECTED_CLAIMS), sidecar.getEnv().stream().map(EnvVar::getName).toList());
    }

    /**
     * failurePolicy Fail: an opted-in pod that cannot get the sidecar (here, the policy's parameters lack its image) is
     * refused (and says why) instead of starting without it; other pods are not affected.
     */
    @Test
    void withAParameterMissingOptedInPodsAreRefusedAndOthersCreated() throws Exception {
        injection.editParameters(p -> p.remove("image"));
        KubernetesClientException refusal = injection.awaitRefusal();
        assertTrue(refusal.getMessage().contains("dra-metadata-sidecar"), refusal.getMessage());
        Pod optedIn = optedIn(InjectionPods.withClaims("refused", direct("gpu", "gpu-claim")));
        assertThrows(KubernetesClientException.class,
                () -> API.client().pods().inNamespace(namespace).resource(optedIn).create());
        Pod other = InjectionPods.withClaims("other", direct("gpu", "gpu-claim"));
        Injection.assertUnchanged(other, create(other));
    }

    /**
     * Upper-case parameters become the sidecar's environment, sorted, their values as they are (JSON strings that
     * CEL reads: quotes, backslashes, a line break, escaped non-ASCII); the derived expected claims cannot be overridden.
     */
    @Test
    void settingsAmongTheParametersBecomeTheSidecarsEnvironment() throws Exception {
        String awkward = "a'b\"c\\d<e>&\n\u00e9";
        injection.editParameters(p -> {
            p.put("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "true");
            p.put("AWKWARD", awkward);
            p.put(EXPECTED_CLAIMS, "claims/ignored");
        });
        Container sidecar = eventuallyInjected(optedIn(InjectionPods.withClaims("settings", direct("gpu", "gpu-claim"))),
                c -> "true".equals(env(c, "QUARKUS_LOG_CONSOLE_JSON_ENABLED")));
        assertEquals(List.of(EXPECTED_CLAIMS, "AWKWARD", "QUARKUS_LOG_CONSOLE_JSON_ENABLED"),
                sidecar.getEnv().stream().map(EnvVar::getName).toList());
        assertEquals(awkward, env(sidecar, "AWKWARD"));
        assertEquals("claims/gpu-claim", env(sidecar, EXPECTED_CLAIMS), "the derived expected claims");
    }

    /**
     * An opted-in pod that asks for an extended resource is created (with the sidecar for its claims), and the API
     * server warns that the sidecar cannot serve that resource and that node mode can; a pod that asks for none gets
     * no warning (every other test here).
     */
    @Test
    void anOptedInPodWithExtendedResourcesIsCreatedWithAWarningThatPointsToNodeMode() {
        Container gpu = new ContainerBuilder(app("app", "gpu")).editResources().withLimits(Map.of("example.com/gpu",
                new Quantity("1"), "cpu", new Quantity("1")))
                .endResources().build();
        Container nic = new ContainerBuilder(app("side")).editResources().withLimits(Map.of("example.com/nic",
                new Quantity("1"))).endResources().build();
        Pod pod = optedIn(pod("extended", List.of(direct("gpu", "gpu-claim")), List.of(), List.of(gpu, nic)));
        String expected = "dra-metadata-sidecar: the sidecar cannot serve the device metadata of extended resources "
                + "(example.com/gpu, example.com/nic): a DRA extended resource is claimed after admission, out of the "
                + "sidecar's view. Use node mode (deploy/kubernetes/node, or the chart with mode=node) for this pod.";
        Eventually.await(Duration.ofSeconds(30), () -> {
            API.client().pods().inNamespace(namespace).resource(pod).dryRun().create();
            return API.warnings();
        }, w -> w.stream().anyMatch(x -> x.contains("dra-metadata-sidecar:")), "the warning policy enforced");
        Pod created = API.client().pods().inNamespace(namespace).resource(pod).create();
        List<String> warnings = API.warnings();
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains(expected), warnings.get(0));
        injected(created);
    }

    /** Parameter changes reach admission through an informer: dry runs until one shows the change, then the pod. */
    private Container eventuallyInjected(Pod pod, Predicate<Container> changed) {
        Eventually.await(Duration.ofSeconds(30),
                () -> API.client().pods().inNamespace(namespace).resource(pod).dryRun().create(),
                p -> Pods.sidecar(p) != null && changed.test(injected(p)), "the parameter change applied");
        API.warnings();
        return injected(create(pod));
    }
}
