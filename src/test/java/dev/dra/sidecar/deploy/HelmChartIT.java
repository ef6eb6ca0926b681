package dev.dra.sidecar.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dra.sidecar.testsupport.Helm;
import dev.dra.sidecar.testsupport.InjectionParameters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Helm chart (deploy/helm/dra-metadata-sidecar) with the real helm: it lints clean in both modes, its default
 * render is the Kustomize injection and its {@code mode=node} render is deploy/kubernetes/node, object for object and
 * field for field, its values change what they say, and its schema refuses values the policy cannot carry.
 */
class HelmChartIT {

    /**
     * No warning nor error, and no note but the one about an icon: the project publishes no icon, and a made-up
     * icon address would be a link to nothing. In both modes, with the monitoring objects off (the default) and on.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mode=sidecar", "mode=node", "resourceApi.enabled=true,resourceApi.namespaces={apps}",
            "mode=sidecar,monitoring.podMonitor.enabled=true,monitoring.prometheusRule.enabled=true",
            "mode=node,monitoring.podMonitor.enabled=true,monitoring.prometheusRule.enabled=true"})
    void lintStrictIsClean(String values) throws Exception {
        Helm.Result lint = Helm.offline().run("lint", "--strict", "--kube-version=1.37.2", "--set", values,
                Helm.CHART.toString());
        assertEquals(0, lint.exitCode(), lint.stdout() + lint.stderr());
        assertTrue(lint.stdout().contains("1 chart(s) linted, 0 chart(s) failed"), lint.stdout());
        List<String> reports = lint.stdout().lines().filter(l -> l.startsWith("[")).toList();
        assertEquals(List.of("[INFO] Chart.yaml: icon is recommended"), reports, lint.stdout());
    }

    /**
     * One source of truth: with its defaults the chart makes exactly the Kustomize injection's objects, every
     * field equal (the policy's parameters to the letter) but Helm's own labels ({@link
     * ChartRender#withoutHelmLabels}). The injection's objects are cluster-scoped: the release namespace is not in them.
     */
    @Test
    void theDefaultRenderIsTheKustomizeInjection() throws Exception {
        Map<String, ObjectNode> kustomize = ChartRender.kustomize();
        Map<String, ObjectNode> helm = ChartRender.helm("dra-metadata-sidecar");
        assertEquals(kustomize.keySet(), helm.keySet(), "the objects");
        for (String key : kustomize.keySet()) {
            assertEquals(ChartRender.canonical(kustomize.get(key)),
                    ChartRender.canonical(ChartRender.withoutHelmLabels(helm.get(key))), key);
            assertNotEquals(helm.get(key), ChartRender.withoutHelmLabels(helm.get(key)), key + " carries Helm's labels");
        }
    }

    /**
     * The same for node mode: {@code mode=node} makes deploy/kubernetes/node's objects but its Namespace (the release
     * namespace, which must allow Privileged: README.md), and none of the sidecar injection's.
     */
    @Test
    void theNodeModeRenderIsTheKustomizeNodeMode() throws Exception {
        Map<String, ObjectNode> kustomize = ChartRender.kustomize(ChartRender.NODE);
        String namespace = ChartRender.namespaceOf(kustomize, "DaemonSet");
        assertTrue(kustomize.keySet().remove("Namespace /" + namespace), "node mode's namespace: " + kustomize.keySet());
        Map<String, ObjectNode> helm = ChartRender.helm(namespace, "--set", "mode=node");
        assertEquals(kustomize.keySet(), helm.keySet(), "the objects");
        for (String key : kustomize.keySet()) {
            assertEquals(ChartRender.canonical(kustomize.get(key)),
                    ChartRender.canonical(ChartRender.withoutHelmLabels(helm.get(key))), key);
        }
    }

    @Test
    void nodeModeValuesChangeWhatTheySay() throws Exception {
        Map<String, ObjectNode> objects = ChartRender.helm("agents", "--set", "mode=node",
                "--set", "image.repository=registry.example.com/sidecar", "--set", "image.tag=9.9.9",
                "--set", "node.hostPaths={/var/lib/kubelet/plugins/gpu.example.com,/opt/driver/metadata}",
                "--set", "node.resources.limits.memory=512Mi", "--set", "node.shutdownDelay=8s",
                "--set", "node.port=31089",
                "--set", "startTimeoutSeconds=30",
                "--set-string", "settings.QUARKUS_LOG_CONSOLE_JSON_ENABLED=true",
                "--set", "optIn.label=example.com/agent", "--set", "optIn.pods=false", "--set", "failurePolicy=Ignore");
        JsonNode pod = objects.get("DaemonSet agents/dra-metadata-sidecar").path("spec").path("template").path("spec");
        JsonNode agent = pod.path("containers").get(0);
        assertEquals("registry.example.com/sidecar:9.9.9", agent.path("image").asText());
        assertEquals("512Mi", agent.path("resources").path("limits").path("memory").asText());
        assertTrue(agent.path("env").toString().contains("{\"name\":\"QUARKUS_SHUTDOWN_DELAY\",\"value\":\"8s\"}"),
                agent.path("env").toString());
        assertEquals(30, agent.path("startupProbe").path("failureThreshold").asInt());
        assertTrue(agent.path("env").toString().contains("{\"name\":\"QUARKUS_LOG_CONSOLE_JSON_ENABLED\",\"value\":\"true\"}"),
                agent.path("env").toString());
        assertEquals("[\"/var/run/cdi\",\"/var/lib/kubelet/plugins/gpu.example.com\",\"/opt/driver/metadata\"]",
                paths(agent.path("volumeMounts"), "mountPath"), "mounted at their host paths");
        assertEquals("[\"/var/run/cdi\",\"/var/lib/kubelet/plugins/gpu.example.com\",\"/opt/driver/metadata\"]",
                paths(pod.path("volumes"), "hostPath"));
        agent.path("volumeMounts").forEach(m -> assertTrue(m.path("readOnly").asBoolean(), m.toString()));
        assertEquals("agents", objects.get("ClusterRoleBinding /dra-metadata-sidecar").path("subjects").get(0)
                .path("namespace").asText());

        ObjectNode policy = objects.get("MutatingAdmissionPolicy /dra-metadata-sidecar");
        assertEquals("Ignore", policy.path("spec").path("failurePolicy").asText());
        assertTrue(policy.path("spec").path("matchConditions").toString().contains("[?'example.com/agent']"));
        assertEquals(List.of("MutatingAdmissionPolicyBinding /dra-metadata-sidecar-namespaces"),
                objects.keySet().stream().filter(k -> k.startsWith("MutatingAdmissionPolicyBinding")).toList());
        assertEquals(31089, objects.get("Service agents/dra-metadata-sidecar").path("spec").path("ports").get(0)
                .path("nodePort").asInt());
        assertTrue(policy.path("spec").path("mutations").toString().contains("'http://$(DRA_METADATA_HOST):31089'"),
                "the URL the injection gives names the node port");
        assertEquals(List.of(), objects.keySet().stream().filter(k -> k.startsWith("ValidatingAdmissionPolicy")).toList(),
                "none of sidecar mode's objects");
    }

    private static String paths(JsonNode entries, String field) {
        List<String> paths = new ArrayList<>();
        entries.forEach(e -> paths.add(e.path(field).isTextual() ? e.path(field).asText() : e.path(field).path("path").asText()));
        return paths.stream().map(p -> "\"" + p + "\"").collect(Collectors.joining(",", "[", "]"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"mode=sidecar", "mode=node", "resourceApi.enabled=true,resourceApi.namespaces={apps}"})
    void theHelmLabelsFollowTheConventions(String values) throws Exception {
        for (ObjectNode object : ChartRender.helm("dra-metadata-sidecar", "--set", values).values()) {
            String kind = object.path("kind").asText();
            String component = kind.contains("AdmissionPolicy") ? "injection"
                    : object.path("metadata").path("name").asText().endsWith("-resource-api") ? "resource-api"
                    : "node-agent";
            Map<String, String> labels = new TreeMap<>();
            object.path("metadata").path("labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
            assertEquals(Map.of(
                    "helm.sh/chart", "dra-metadata-sidecar-" + ChartVersions.chart().get("version"),
                    "app.kubernetes.io/name", "dra-metadata-sidecar",
                    "app.kubernetes.io/instance", ChartRender.RELEASE,
                    "app.kubernetes.io/version", ChartVersions.chart().get("appVersion"),
                    "app.kubernetes.io/component", component,
                    "app.kubernetes.io/managed-by", "Helm"), labels, kind);
        }
    }

    @Test
    void valuesChangeWhatTheySay() throws Exception {
        Map<String, ObjectNode> objects = ChartRender.helm("sidecars",
                "--set", "image.repository=registry.example.com/sidecar", "--set", "image.tag=9.9.9",
                "--set", "resources.limits.memory=200Mi",
                "--set", "startTimeoutSeconds=90", "--set", "probes.liveness.periodSeconds=20",
                "--set-string", "settings.QUARKUS_LOG_CONSOLE_JSON_ENABLED=true",
                "--set", "optIn.label=example.com/sidecar", "--set", "optIn.namespaces=false",
                "--set", "failurePolicy=Ignore");
        ObjectNode policy = objects.get("MutatingAdmissionPolicy /dra-metadata-sidecar");
        assertEquals(Map.of("image", "registry.example.com/sidecar:9.9.9", "cpu-request", "50m", "memory-request", "96Mi",
                "memory-limit", "200Mi", "QUARKUS_LOG_CONSOLE_JSON_ENABLED", "true"), InjectionParameters.of(policy));

        assertEquals("Ignore", policy.path("spec").path("failurePolicy").asText());
        String patch = policy.path("spec").path("mutations").get(0).path("jsonPatch").path("expression").asText();
        assertTrue(patch.contains("command: ['/opt/jre/bin/java', '@/deployments/await-started', '90']"), patch);
        assertTrue(patch.matches("(?s).*livenessProbe\\{.*?periodSeconds: 20,\\s*failureThreshold: 3.*"), patch);
        assertTrue(policy.path("spec").path("matchConditions").toString().contains("[?'example.com/sidecar']"),
                "the opt-out annotation follows the label");

        assertEquals(List.of("MutatingAdmissionPolicyBinding /dra-metadata-sidecar-pods"),
                objects.keySet().stream().filter(k -> k.startsWith("MutatingAdmissionPolicyBinding")).toList());
        ObjectNode binding = objects.get("MutatingAdmissionPolicyBinding /dra-metadata-sidecar-pods");
        assertEquals("{\"example.com/sidecar\":\"true\"}",
                binding.path("spec").path("matchResources").path("objectSelector").path("matchLabels").toString());
        assertTrue(binding.path("spec").path("paramRef").isMissingNode(), "no parameter object: " + binding);
    }

    /**
     * Settings reach the policy as they are, whatever they hold: the parameters are JSON, and a JSON string is a CEL
     * string (the API server's CEL parses them: SidecarInjectionIT).
     */
    @Test
    void settingsAreWrittenAsJsonStrings() throws Exception {
        String awkward = "a'b\"c\\d<e>&\n\u00e9";
        Path values = Files.createTempFile("awkward-values", ".json");
        Files.writeString(values, new ObjectMapper().writeValueAsString(Map.of("settings", Map.of("AWKWARD", awkward))));
        Map<String, ObjectNode> objects = ChartRender.helm("sidecars", "--values", values.toString());
        Files.delete(values);
        assertEquals(awkward, InjectionParameters.of(objects.get("MutatingAdmissionPolicy /dra-metadata-sidecar"))
                .get("AWKWARD"));
    }

    /**
     * {@code resourceApi}: the parameter that turns the source on (the policy reads it at admission), and the RBAC docs/resource-api.md writes out for one namespace, object for object and
     * field for field but Helm's labels, once per listed namespace; nothing else. Off (the default), neither.
     */
    @Test
    void theResourceApiValuesRenderTheParameterAndExactlyTheRbacTheDocsWriteOut() throws Exception {
        Map<String, ObjectNode> off = ChartRender.helm("sidecars");
        Map<String, ObjectNode> on = ChartRender.helm("sidecars", "--set", "resourceApi.enabled=true",
                "--set", "resourceApi.namespaces={my-apps,ml}");
        assertNull(InjectionParameters.of(off.get("MutatingAdmissionPolicy /dra-metadata-sidecar"))
                .get("DRA_METADATA_RESOURCE_API_ENABLED"), "off: no parameter");
        assertEquals("true", InjectionParameters.of(on.get("MutatingAdmissionPolicy /dra-metadata-sidecar"))
                .get("DRA_METADATA_RESOURCE_API_ENABLED"));

        String name = "dra-metadata-sidecar-resource-api";
        List<String> added = on.keySet().stream().filter(k -> !off.containsKey(k)).toList();
        assertEquals(List.of("ClusterRole /" + name, "ClusterRoleBinding /" + name, "Role ml/" + name,
                "Role my-apps/" + name, "RoleBinding ml/" + name, "RoleBinding my-apps/" + name), added,
                "what resourceApi adds");

        Map<String, ObjectNode> documented = ChartRender.objects(documentedRbac());
        Map<String, ObjectNode> forMyApps = ChartRender.helm("sidecars", "--set", "resourceApi.enabled=true",
                "--set", "resourceApi.namespaces={my-apps}");
        assertEquals(documented.keySet(), forMyApps.keySet().stream().filter(k -> k.endsWith("/" + name))
                .collect(Collectors.toCollection(TreeSet::new)), "docs/resource-api.md's objects");
        for (String key : documented.keySet()) {
            assertEquals(ChartRender.canonical(documented.get(key)),
                    ChartRender.canonical(ChartRender.withoutHelmLabels(forMyApps.get(key))), key);
        }
        assertEquals("[{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"Group\",\"name\":"
                + "\"system:serviceaccounts:my-apps\"},{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"Group\","
                + "\"name\":\"system:serviceaccounts:ml\"}]",
                on.get("ClusterRoleBinding /" + name).path("subjects").toString(), "both namespaces' service accounts");

        assertEquals(List.of("ClusterRole /" + name), ChartRender.helm("sidecars", "--set", "resourceApi.enabled=true")
                .keySet().stream().filter(k -> k.contains("Role")).toList(), "no namespace listed: nothing bound");
        assertEquals(List.of(), ChartRender.helm("agents", "--set", "mode=node", "--set", "resourceApi.enabled=true",
                "--set", "resourceApi.namespaces={my-apps}").keySet().stream().filter(k -> k.endsWith(name)).toList(),
                "node mode: the agent's own ClusterRole has it");
    }

    /** The YAML block of docs/resource-api.md: the RBAC it writes out. */
    private static String documentedRbac() throws Exception {
        String docs = Files.readString(Path.of("docs", "resource-api.md"));
        Matcher block = Pattern.compile("```yaml\n(.*?)```", Pattern.DOTALL).matcher(docs);
        assertTrue(block.find(), "docs/resource-api.md writes out the RBAC");
        return block.group(1);
    }

    @Test
    void aDigestPinsTheImageAndTheTagNoLongerCounts() throws Exception {
        String digest = "sha256:" + "0123456789abcdef".repeat(4);
        Map<String, ObjectNode> objects = ChartRender.helm("sidecars",
                "--set", "image.repository=registry.example.com/sidecar", "--set", "image.tag=9.9.9",
                "--set", "image.digest=" + digest);
        assertEquals("registry.example.com/sidecar@" + digest,
                InjectionParameters.of(objects.get("MutatingAdmissionPolicy /dra-metadata-sidecar")).get("image"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"image.digest=latest", "image.digest=sha256:abc",
            "failurePolicy=Maybe", "settings.DRA_METADATA_EXPECTED_CLAIMS=claims/x",
            "settings.lower_case=x", "resources.limits.cpu=1", "startTimeoutSeconds=0",
            "optIn.label=not a label", "image.repository=", "resources.requests.memory=lots", "replicas=2",
            "mode=daemonset", "node.hostPaths={relative/dir}", "node.hostPaths={/var/run/cdi}", "node.resources.limits.cpu=1",
            "resourceApi.enabled=yes", "resourceApi.namespaces={apps}", "resourceApi.enabled=true,resourceApi.namespaces={Apps}",
            "resourceApi.enabled=true,resourceApi.namespaces={apps,apps}", "settings.DRA_METADATA_RESOURCE_API_ENABLED=x",
            "settings.POD_NAMESPACE=x", "settings.POD_UID=x", "settings.NODE_NAME=x"})
    void theSchemaRefusesValuesThePolicyCannotCarry(String value) throws Exception {
        Helm.Result result = Helm.offline().run("template", ChartRender.RELEASE, Helm.CHART.toString(),
                "--kube-version=1.37.2", "--set", value);
        assertNotEquals(0, result.exitCode(), value + " rendered:\n" + result.stdout());
        assertTrue(result.stderr().contains("values don't meet the specifications of the schema"), result.stderr());
    }
}
