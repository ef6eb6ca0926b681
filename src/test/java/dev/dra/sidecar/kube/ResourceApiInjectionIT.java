package dev.dra.sidecar.kube;

import static dev.dra.sidecar.kube.InjectionPods.direct;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.testsupport.Eventually;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The injection (deploy/kubernetes/injection) with the resource API as a source turned on in its parameters
 * ({@code DRA_METADATA_RESOURCE_API_ENABLED: "true"}), on a real API server: the sidecar also gets the pod's
 * namespace, UID and node from the downward API and, where a container finds its service account's credentials, a
 * projected volume of its own (a token of the pod's service account, the cluster's CA, the namespace), whether the pod
 * automounts its service account's token or not; the app containers keep what they had; the pod is admitted under
 * Restricted with no warning. The shipped parameters give none of it (SidecarInjectionIT: the injected sidecar is the
 * component's, with no volume).
 */
class ResourceApiInjectionIT {

    @RegisterExtension
    static final KubeApiServerExtension API = new KubeApiServerExtension();

    private static final String ENABLED = "DRA_METADATA_RESOURCE_API_ENABLED";
    private static final String VOLUME = "dra-metadata-sidecar-api-access";
    private static final String TOKEN_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";
    private static Injection injection;
    private String namespace;

    @BeforeAll
    static void applyInjection() throws Exception {
        injection = new Injection(API);
    }

    /** The injection as shipped, then the parameter set ({@code POD_UID} too, which the policy derives). */
    @BeforeEach
    void theSourceOnInAFreshNamespace() throws Exception {
        namespace = injection.enforcedInAFreshNamespace("resource-api");
        injection.editParameters(p -> {
            p.put(ENABLED, "True");
            p.put("POD_UID", "not-from-the-parameters");
        });
        API.warnings();
    }

    /** The parameters as shipped again, once admission uses them: the classes that share the API server expect so. */
    @AfterAll
    static void theShippedParametersAgain() throws Exception {
        if (injection == null) {
            return;
        }
        injection.apply();
        injection.awaitEnforced();
        API.warnings();
    }

    private static Pod optedIn(Pod pod) {
        return new PodBuilder(pod).editMetadata().addToLabels(Injection.OPT_IN, "true").endMetadata().build();
    }

    /**
     * Creates {@code pod} once admission injects it as {@code changed} says (dry runs until then: parameter changes
     * reach admission through an informer), with no warning.
     */
    private Pod createOnce(Pod pod, Predicate<Container> changed) {
        Eventually.await(Duration.ofSeconds(30),
                () -> API.client().pods().inNamespace(namespace).resource(pod).dryRun().create(),
                p -> changed.test(Pods.sidecar(p)), "the parameter change applied");
        API.warnings();
        Pod created = API.client().pods().inNamespace(namespace).resource(pod).create();
        assertEquals(List.of(), API.warnings(), "the API server's warnings");
        return created;
    }

    private static boolean hasIdentity(Container sidecar) {
        return sidecar.getEnv().stream().anyMatch(e -> e.getName().equals("NODE_NAME"));
    }

    /** {@code name:mountPath[:ro]} of each of the container's volume mounts. */
    private static List<String> mounts(Container container) {
        return container.getVolumeMounts().stream().map(m -> m.getName() + ":" + m.getMountPath()
                + (Boolean.TRUE.equals(m.getReadOnly()) ? ":ro" : "")).toList();
    }

    @Test
    void theSidecarGetsThePodsIdentityAndATokenOfItsOwnAfterThePodsOwnVolumes() {
        Pod pod = new PodBuilder(optedIn(InjectionPods.withClaims("no-automount", direct("gpu", "gpu-claim"))))
                .editSpec().addNewVolume().withName("cache").withNewEmptyDir().endEmptyDir().endVolume().endSpec()
                .build();
        Pod created = createOnce(pod, ResourceApiInjectionIT::hasIdentity);
        Container sidecar = Pods.sidecar(created);
        assertEquals(List.of("DRA_METADATA_EXPECTED_CLAIMS=claims/gpu-claim", ENABLED + "=True",
                "POD_NAMESPACE<-metadata.namespace", "POD_UID<-metadata.uid", "NODE_NAME<-spec.nodeName"),
                sidecar.getEnv().stream().map(e -> e.getValueFrom() == null ? e.getName() + "=" + e.getValue()
                        : e.getName() + "<-" + e.getValueFrom().getFieldRef().getFieldPath()).toList(),
                "the settings, then the downward API's (a parameter cannot set them)");
        assertEquals(List.of(VOLUME + ":" + TOKEN_PATH + ":ro"), mounts(sidecar));
        assertEquals(List.of("cache", VOLUME), created.getSpec().getVolumes().stream().map(Volume::getName).toList(),
                "the pod's own volume first; no kube-api-access-* (the pod does not automount)");
        assertEquals("{\"defaultMode\":420,\"sources\":[{\"serviceAccountToken\":{\"expirationSeconds\":3600,"
                + "\"path\":\"token\"}},{\"configMap\":{\"items\":[{\"key\":\"ca.crt\",\"path\":\"ca.crt\"}],"
                + "\"name\":\"kube-root-ca.crt\"}},{\"downwardAPI\":{\"items\":[{\"fieldRef\":{\"apiVersion\":\"v1\","
                + "\"fieldPath\":\"metadata.namespace\"},\"path\":\"namespace\"}]}}]}",
                API.client().getKubernetesSerialization().asJson(created.getSpec().getVolumes().get(1).getProjected()),
                "what the ServiceAccount admission plugin projects");
        assertEquals(List.of(), mounts(created.getSpec().getContainers().get(0)), "the app still gets no token");
    }

    /**
     * A pod that automounts: the ServiceAccount admission plugin, run again after the policy changed the pod, finds
     * the sidecar's own mount at its path and leaves the sidecar alone; the app keeps the plugin's token.
     */
    @Test
    void inAPodThatAutomountsTheAppKeepsItsTokenAndTheSidecarHasOnlyItsOwn() {
        Pod pod = new PodBuilder(optedIn(InjectionPods.withClaims("automount", direct("gpu", "gpu-claim"))))
                .editSpec().withAutomountServiceAccountToken(null).endSpec().build();
        Pod created = createOnce(pod, ResourceApiInjectionIT::hasIdentity);
        List<String> app = mounts(created.getSpec().getContainers().get(0));
        assertEquals(1, app.size(), app.toString());
        assertTrue(app.get(0).matches("kube-api-access-[a-z0-9]+:" + TOKEN_PATH + ":ro"), app.toString());
        assertEquals(List.of(VOLUME + ":" + TOKEN_PATH + ":ro"), mounts(Pods.sidecar(created)),
                "the sidecar's own volume, and only it, at the path");
        assertEquals(List.of(app.get(0).split(":")[0], VOLUME),
                created.getSpec().getVolumes().stream().map(Volume::getName).toList());
    }

    /** The policy reads the parameter as on for "true" in any case only: "yes" and "false" give none of it. */
    @Test
    void anyOtherValueGivesNoneOfIt() throws Exception {
        for (String value : List.of("yes", "false")) {
            injection.editParameters(p -> p.put(ENABLED, value));
            Pod created = createOnce(optedIn(InjectionPods.withClaims("value-" + value, direct("gpu", "gpu-claim"))),
                    sidecar -> sidecar.getEnv().stream().anyMatch(e -> e.getName().equals(ENABLED)
                            && e.getValue().equals(value)));
            assertEquals(List.of("DRA_METADATA_EXPECTED_CLAIMS", ENABLED),
                    Pods.sidecar(created).getEnv().stream().map(e -> e.getName()).toList(), value);
            assertEquals(List.of(), mounts(Pods.sidecar(created)), value);
            assertEquals(List.of(), created.getSpec().getVolumes(), value);
        }
    }
}
