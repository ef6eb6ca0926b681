package dev.dra.sidecar.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.testsupport.GoTools;
import dev.dra.sidecar.testsupport.Helm;
import dev.dra.sidecar.testsupport.Unavailable;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.FieldValidateable.Validation;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The chart's monitoring objects on a real API server that has the Prometheus Operator's CustomResourceDefinitions
 * for PodMonitor, ServiceMonitor and PrometheusRule (those of the release src/test/prometheus-operator/go.mod pins,
 * from its module's example/prometheus-operator-crd): the PodMonitor and PrometheusRule that each mode renders are
 * created with strict field validation, so that an unknown or misspelt field is refused rather than pruned, and the
 * API server keeps their spec as rendered. The CRDs are removed afterwards.
 */
class MonitoringCrdsIT {

    @RegisterExtension
    static final KubeApiServerExtension API = new KubeApiServerExtension();

    private static final String WHO = "the monitoring CRD test";
    private static final Path CRDS_SCRIPT = Path.of("src/test/prometheus-operator/crds.sh");
    private static final List<String> CRDS = List.of("podmonitors", "servicemonitors", "prometheusrules");
    private static final String RELEASE = "dra-metadata-sidecar";

    private static final List<CustomResourceDefinition> installed = new ArrayList<>();

    @BeforeAll
    static void installTheCrds() {
        Path dir;
        try {
            dir = GoTools.printedPath(WHO, "the Prometheus Operator's CRDs", CRDS_SCRIPT,
                    Path.of("target/go-tools/prometheus-operator-crds.log"));
        } catch (Unavailable e) {
            System.err.println("SKIPPED: " + e.getMessage());
            Assumptions.abort(e.getMessage());
            return;
        }
        for (String plural : CRDS) {
            CustomResourceDefinition crd = API.client().apiextensions().v1().customResourceDefinitions()
                    .load(dir.resolve("monitoring.coreos.com_" + plural + ".yaml").toFile()).item();
            installed.add(API.client().resource(crd).createOr(NonDeletingOperation::update));
        }
        for (CustomResourceDefinition crd : installed) {
            API.client().resource(crd).waitUntilCondition(c -> c != null && c.getStatus() != null
                    && c.getStatus().getConditions().stream().anyMatch(
                            s -> s.getType().equals("Established") && s.getStatus().equals("True")), 60, TimeUnit.SECONDS);
        }
        API.warnings();
    }

    @AfterAll
    static void removeTheCrds() {
        for (CustomResourceDefinition crd : installed) {
            API.client().resource(crd).delete();
        }
    }

    /** The monitoring objects of {@code mode} as the chart renders them in {@code namespace}, with {@code more}. */
    private static List<HasMetadata> render(String mode, String namespace, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("template", RELEASE, Helm.CHART.toString(), "--namespace", namespace,
                "--kube-version=1.37.2", "--show-only", "templates/monitoring.yaml", "--set", "mode=" + mode,
                "--set", "monitoring.podMonitor.enabled=true", "--set", "monitoring.prometheusRule.enabled=true"));
        args.addAll(List.of(more));
        return API.load(Helm.offline().succeed(args.toArray(String[]::new)));
    }

    private static KubernetesSerialization json() {
        return API.client().getKubernetesSerialization();
    }

    /** {@code value} as a JSON tree, which compares maps whatever their key order. */
    private static JsonNode tree(Object value) throws Exception {
        return new ObjectMapper().readTree(json().asJson(value));
    }

    /** The object as a generic resource, whatever type the client gave it. */
    private static GenericKubernetesResource generic(HasMetadata object) {
        return json().unmarshal(json().asJson(object), GenericKubernetesResource.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sidecar", "node"})
    void theRenderedMonitorsAndRulesAreAcceptedAsTheyAre(String mode) throws Exception {
        String namespace = API.restrictedNamespace("monitoring-" + mode, Map.of());
        List<HasMetadata> objects = render(mode, namespace, "--set", "monitoring.podMonitor.namespaces={apps}",
                "--set", "monitoring.labels.release=kube-prometheus-stack");
        TreeSet<String> kinds = new TreeSet<>();
        for (HasMetadata object : objects) {
            kinds.add(object.getApiVersion() + "/" + object.getKind());
            HasMetadata created = API.client().resource(object).fieldValidation(Validation.STRICT).create();
            assertEquals(List.of(), API.warnings(), "the API server's warnings for " + object.getKind());
            GenericKubernetesResource stored = API.client().genericKubernetesResources(object.getApiVersion(),
                    object.getKind()).inNamespace(namespace).withName(object.getMetadata().getName()).get();
            assertEquals(tree(generic(object).getAdditionalProperties().get("spec")),
                    tree(stored.getAdditionalProperties().get("spec")),
                    object.getKind() + " kept as rendered (nothing pruned nor defaulted away)");
            assertEquals(object.getMetadata().getLabels(), created.getMetadata().getLabels());
        }
        assertEquals(new TreeSet<>(List.of("monitoring.coreos.com/v1/PodMonitor", "monitoring.coreos.com/v1/PrometheusRule")),
                kinds);
    }

    /** The check above can fail: the API server refuses a misspelt field and a value that the CRD's schema refuses. */
    @Test
    void strictValidationRefusesWhatTheCrdsDoNotDescribe() throws Exception {
        String namespace = API.restrictedNamespace("monitoring-refused", Map.of());
        GenericKubernetesResource podMonitor = generic(render("sidecar", namespace).stream()
                .filter(o -> o.getKind().equals("PodMonitor")).findFirst().orElseThrow());
        @SuppressWarnings("unchecked")
        Map<String, Object> endpoint = ((List<Map<String, Object>>) ((Map<String, Object>) podMonitor
                .getAdditionalProperties().get("spec")).get("podMetricsEndpoints")).get(0);
        endpoint.put("metricsPath", "/q/metrics");
        KubernetesClientException unknown = assertThrows(KubernetesClientException.class,
                () -> API.client().resource(podMonitor).fieldValidation(Validation.STRICT).create());
        assertTrue(unknown.getMessage().contains("unknown field"), unknown.getMessage());

        endpoint.remove("metricsPath");
        endpoint.put("interval", "1 minute");
        KubernetesClientException invalid = assertThrows(KubernetesClientException.class,
                () -> API.client().resource(podMonitor).fieldValidation(Validation.STRICT).create());
        assertEquals(422, invalid.getCode(), invalid.getMessage());
        API.warnings();
    }
}
