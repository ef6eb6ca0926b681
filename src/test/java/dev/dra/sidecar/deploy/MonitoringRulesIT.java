package dev.dra.sidecar.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.dra.sidecar.testsupport.GoTools;
import dev.dra.sidecar.testsupport.Helm;
import dev.dra.sidecar.testsupport.Unavailable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The chart's monitoring objects (templates/monitoring.yaml) with the real helm and promtool: none by default; the
 * PodMonitor of each mode selects exactly what that mode runs; each mode's PrometheusRule passes {@code promtool
 * check rules} with every lint fatal, and {@code promtool test rules} with src/test/promtool/{@code
 * <mode>-alerts-test.yaml}, which has for every alert a case where it fires and one where it stays silent; every
 * alert has a summary, a description and a runbook_url at its own section of docs/alerts.md.
 */
class MonitoringRulesIT {

    private static final String WHO = "the chart's alert tests";
    private static final String NAMESPACE = "monitoring";
    /** The job label the Prometheus Operator gives the targets of a PodMonitor: its namespace and name. */
    private static final String JOB = "job=\"" + NAMESPACE + "/" + ChartRender.RELEASE + "\"";
    private static final String RUNBOOK = "https://github.com/example/dra-metadata-sidecar/blob/main/docs/alerts.md";
    private static final Path TESTS = Path.of("src/test/promtool");
    private static final Path WORK = Path.of("target/promtool");
    private static final Path ALERTS_DOC = Path.of("docs/alerts.md");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static Map<String, ObjectNode> render(String mode, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--set", "mode=" + mode, "--set", "monitoring.podMonitor.enabled=true",
                "--set", "monitoring.prometheusRule.enabled=true"));
        args.addAll(List.of(more));
        return ChartRender.helm(NAMESPACE, args.toArray(String[]::new));
    }

    private static ObjectNode podMonitor(Map<String, ObjectNode> objects) {
        return objects.get("PodMonitor " + NAMESPACE + "/" + ChartRender.RELEASE);
    }

    private static ObjectNode prometheusRule(Map<String, ObjectNode> objects) {
        return objects.get("PrometheusRule " + NAMESPACE + "/" + ChartRender.RELEASE);
    }

    private static List<JsonNode> alerts(Map<String, ObjectNode> objects) {
        List<JsonNode> alerts = new ArrayList<>();
        prometheusRule(objects).path("spec").path("groups").forEach(g -> g.path("rules").forEach(alerts::add));
        return alerts;
    }

    @ParameterizedTest
    @ValueSource(strings = {"sidecar", "node"})
    void noMonitoringObjectByDefault(String mode) throws Exception {
        assertEquals(List.of(), ChartRender.helm(NAMESPACE, "--set", "mode=" + mode).values().stream()
                .filter(o -> o.path("apiVersion").asText().startsWith("monitoring.coreos.com/")).toList());
    }

    /**
     * The injection adds no label to a pod, and pods opt in by their namespace's label too: the PodMonitor takes every
     * pod and keeps the container that the injection policy adds, on the port it names.
     */
    @Test
    void theSidecarPodMonitorKeepsTheInjectedContainerOnly() throws Exception {
        Map<String, ObjectNode> objects = render("sidecar");
        JsonNode spec = podMonitor(objects).path("spec");
        assertEquals("{}", spec.path("selector").toString());
        assertEquals("{\"any\":true}", spec.path("namespaceSelector").toString());
        assertEquals(1, spec.path("podMetricsEndpoints").size());
        JsonNode endpoint = spec.path("podMetricsEndpoints").get(0);
        assertEquals("management", endpoint.path("port").asText());
        assertEquals("/q/metrics", endpoint.path("path").asText());
        assertEquals("60s", endpoint.path("interval").asText());
        assertEquals("[{\"action\":\"keep\",\"sourceLabels\":[\"__meta_kubernetes_pod_container_name\"],"
                + "\"regex\":\"dra-metadata-sidecar\"}]", endpoint.path("relabelings").toString());
        String patch = objects.get("MutatingAdmissionPolicy /" + ChartRender.RELEASE).path("spec").path("mutations").get(0)
                .path("jsonPatch").path("expression").asText();
        assertTrue(patch.contains("name: 'dra-metadata-sidecar',"), "the injected container's name");
        assertTrue(patch.contains("ports: [Object.spec.initContainers.ports{name: 'management', containerPort: 9000,"),
                "the injected container's metrics port");

        JsonNode narrowed = podMonitor(render("sidecar", "--set", "monitoring.podMonitor.namespaces={team-a,team-b}"))
                .path("spec").path("namespaceSelector");
        assertEquals("{\"matchNames\":[\"team-a\",\"team-b\"]}", narrowed.toString());
    }

    @Test
    void theAgentPodMonitorSelectsTheDaemonSetsPods() throws Exception {
        Map<String, ObjectNode> objects = render("node", "--set-string", "monitoring.podMonitor.interval=");
        JsonNode spec = podMonitor(objects).path("spec");
        JsonNode daemonSet = objects.get("DaemonSet " + NAMESPACE + "/" + ChartRender.RELEASE).path("spec");
        assertEquals(daemonSet.path("selector").path("matchLabels"), spec.path("selector").path("matchLabels"));
        assertEquals(1, spec.path("selector").size(), "labels only");
        assertEquals("{\"matchNames\":[\"" + NAMESPACE + "\"]}", spec.path("namespaceSelector").toString());
        JsonNode endpoint = spec.path("podMetricsEndpoints").get(0);
        assertEquals("{\"port\":\"management\",\"path\":\"/q/metrics\"}", endpoint.toString(),
                "no interval (the Prometheus' own) and no relabeling");
        JsonNode ports = daemonSet.path("template").path("spec").path("containers").get(0).path("ports");
        assertTrue(ports.toString().contains("{\"name\":\"management\",\"containerPort\":9000,"), ports.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"sidecar", "node"})
    void promtoolChecksTheRulesAndTheirTestsPass(String mode) throws Exception {
        Path promtool = promtool();
        Files.createDirectories(WORK);
        JsonNode spec = prometheusRule(render(mode)).path("spec");
        Files.writeString(WORK.resolve(mode + "-rules.yaml"), YAML.writeValueAsString(spec), StandardCharsets.UTF_8);
        Path tests = Files.copy(TESTS.resolve(mode + "-alerts-test.yaml"), WORK.resolve(mode + "-alerts-test.yaml"),
                StandardCopyOption.REPLACE_EXISTING);

        String check = run(promtool, "check", "rules", "--lint=all", "--lint-fatal",
                WORK.resolve(mode + "-rules.yaml").toString());
        assertTrue(check.contains("SUCCESS: " + alerts(render(mode)).size() + " rules found"), check);
        String test = run(promtool, "test", "rules", tests.toString());
        assertTrue(test.contains("SUCCESS"), test);
    }

    /**
     * Each alert: a severity, a summary and a description, a runbook_url at the section of docs/alerts.md that bears
     * its name, the PodMonitor's series only, and in the mode's promtool test file a case where it fires and one
     * where it is expected silent.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sidecar", "node"})
    void everyAlertHasItsRunbookAndIsTestedFiringAndSilent(String mode) throws Exception {
        Set<String> headings = runbookHeadings();
        JsonNode tests = YAML.readTree(TESTS.resolve(mode + "-alerts-test.yaml").toFile()).path("tests");
        for (JsonNode alert : alerts(render(mode))) {
            String name = alert.path("alert").asText();
            assertTrue(Set.of("warning", "critical").contains(alert.path("labels").path("severity").asText()), name);
            JsonNode annotations = alert.path("annotations");
            assertFalse(annotations.path("summary").asText().isBlank(), name + " summary");
            assertFalse(annotations.path("description").asText().isBlank(), name + " description");
            assertEquals(RUNBOOK + "#" + name.toLowerCase(), annotations.path("runbook_url").asText(), name);
            assertTrue(headings.contains(name), name + " has no section in " + ALERTS_DOC);
            assertTrue(alert.path("expr").asText().contains(JOB), name + " selects the PodMonitor's job: " + alert);
            assertNotEquals("", alert.path("for").asText(""), name + " waits before it fires");
            List<Integer> expected = new ArrayList<>();
            tests.forEach(t -> t.path("alert_rule_test").forEach(c -> {
                if (c.path("alertname").asText().equals(name)) {
                    expected.add(c.path("exp_alerts").size());
                }
            }));
            assertTrue(expected.stream().anyMatch(n -> n > 0), name + " is never tested firing");
            assertTrue(expected.contains(0), name + " is never tested silent");
        }
    }

    /** docs/alerts.md has one section per alert of the two modes, and no other. */
    @Test
    void theRunbookHasOneSectionPerAlert() throws Exception {
        Set<String> names = new TreeSet<>();
        for (String mode : List.of("sidecar", "node")) {
            alerts(render(mode)).forEach(a -> names.add(a.path("alert").asText()));
        }
        assertEquals(names, runbookHeadings());
    }

    @Test
    void valuesChangeWhatTheySay() throws Exception {
        String selector = "job=\"kubernetes-pods\", container=\"dra-metadata-sidecar\"";
        Map<String, ObjectNode> objects = render("sidecar",
                "--set-string", "monitoring.prometheusRule.selector=" + selector.replace(",", "\\,"),
                "--set", "monitoring.prometheusRule.runbookUrl=https://wiki.example.com/dra-alerts",
                "--set", "monitoring.labels.release=kube-prometheus-stack", "--set", "monitoring.podMonitor.interval=30s");
        for (JsonNode alert : alerts(objects)) {
            String expr = alert.path("expr").asText();
            assertTrue(expr.contains("{" + selector + "}") || expr.contains("{" + selector + ", "), expr);
            assertFalse(expr.contains(JOB), expr);
            assertEquals("https://wiki.example.com/dra-alerts#" + alert.path("alert").asText().toLowerCase(),
                    alert.path("annotations").path("runbook_url").asText());
        }
        for (ObjectNode object : List.of(podMonitor(objects), prometheusRule(objects))) {
            assertEquals("kube-prometheus-stack", object.path("metadata").path("labels").path("release").asText());
            assertEquals("monitoring", object.path("metadata").path("labels").path("app.kubernetes.io/component").asText());
        }
        assertEquals("30s", podMonitor(objects).path("spec").path("podMetricsEndpoints").get(0).path("interval").asText());
    }

    @ParameterizedTest
    @ValueSource(strings = {"monitoring.podMonitor.interval=1 minute", "monitoring.podMonitor.namespaces={Not_A_Name}",
            "monitoring.prometheusRule.runbookUrl=docs/alerts.md", "monitoring.prometheusRule.selector=job=\"x\"}",
            "monitoring.podMonitor.enabled=yes", "monitoring.serviceMonitor.enabled=true"})
    void theSchemaRefusesMonitoringValuesThatCannotWork(String value) throws Exception {
        Helm.Result result = Helm.offline().run("template", ChartRender.RELEASE, Helm.CHART.toString(),
                "--kube-version=1.37.2", "--set", value);
        assertNotEquals(0, result.exitCode(), value + " rendered:\n" + result.stdout());
        assertTrue(result.stderr().contains("values don't meet the specifications of the schema"), result.stderr());
    }

    private static Set<String> runbookHeadings() throws Exception {
        try (Stream<String> lines = Files.lines(ALERTS_DOC)) {
            return lines.filter(l -> l.startsWith("## DraMetadata")).map(l -> l.substring(3).strip())
                    .collect(TreeSet::new, Set::add, Set::addAll);
        }
    }

    /** promtool, built once (src/test/promtool/build.sh); skips the test without a Go toolchain. */
    private static Path promtool() {
        try {
            return GoTools.binary(WHO, "promtool");
        } catch (Unavailable e) {
            System.err.println("SKIPPED: " + e.getMessage());
            Assumptions.abort(e.getMessage());
            throw new AssertionError(e);
        }
    }

    /** Runs {@code promtool args...} and returns its output; fails the test when it fails. */
    private static String run(Path promtool, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(promtool.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "promtool " + String.join(" ", args) + " timed out");
        assertEquals(0, process.exitValue(), "promtool " + String.join(" ", args) + ":\n" + output);
        return output;
    }
}
