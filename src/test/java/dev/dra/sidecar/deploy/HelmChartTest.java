package dev.dra.sidecar.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.dra.sidecar.testsupport.Helm;
import dev.dra.sidecar.testsupport.ProjectVersion;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The chart's files as written: its versions, and every value documented in values.yaml and in the schema. */
class HelmChartTest {

    private static final Pattern KEY = Pattern.compile("^(\\s*)([A-Za-z][A-Za-z0-9]*):.*$");

    /** One version everywhere: the chart is released with the application, at the version pom.xml builds. */
    @Test
    void chartVersionAndAppVersionAreTheProjectsVersion() throws Exception {
        Map<String, Object> chart = ChartVersions.chart();
        assertEquals("v2", chart.get("apiVersion"), "Helm 3 chart");
        assertEquals(ProjectVersion.get(), chart.get("appVersion"), "appVersion against pom.xml");
        assertEquals(ProjectVersion.get(), chart.get("version"), "version against pom.xml");
    }

    /** Every key of values.yaml has a comment line right above it (or above the key it nests in, for none). */
    @Test
    void everyValueIsDocumentedInValuesYaml() throws Exception {
        List<String> lines = Files.readAllLines(Helm.CHART.resolve("values.yaml"));
        List<String> undocumented = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher key = KEY.matcher(lines.get(i));
            if (key.matches() && (i == 0 || !lines.get(i - 1).strip().startsWith("#"))) {
                undocumented.add(key.group(2));
            }
        }
        assertEquals(List.of(), undocumented, "values without a comment");
    }

    /** values.yaml and values.schema.json name the same values, each with a description in the schema. */
    @Test
    void theSchemaDescribesEveryValueAndNoOther() throws Exception {
        JsonNode values = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(Helm.CHART.resolve("values.yaml")));
        JsonNode schema = new ObjectMapper().readTree(Files.readString(Helm.CHART.resolve("values.schema.json")));
        TreeSet<String> inValues = new TreeSet<>();
        TreeSet<String> inSchema = new TreeSet<>();
        collect(values, "", inValues);
        describe(schema, schema, "", inSchema);
        inSchema.remove("global");
        assertEquals(inSchema, inValues);
    }

    private static void collect(JsonNode node, String prefix, TreeSet<String> into) {
        node.fields().forEachRemaining(e -> {
            into.add(prefix + e.getKey());
            if (e.getValue().isObject() && !e.getKey().equals("settings")) {
                collect(e.getValue(), prefix + e.getKey() + ".", into);
            }
        });
    }

    private static void describe(JsonNode root, JsonNode node, String prefix, TreeSet<String> into) {
        node.path("properties").fields().forEachRemaining(e -> {
            String name = prefix + e.getKey();
            assertTrue(e.getValue().hasNonNull("description"), name + " has no description in the schema");
            into.add(name);
            JsonNode type = e.getValue();
            if (type.has("$ref")) {
                type = root.at(type.get("$ref").asText().substring(1));
            }
            describe(root, type, name + ".", into);
        });
    }
}
