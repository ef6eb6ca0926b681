package dev.dra.sidecar.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.dra.sidecar.testsupport.Helm;
import dev.dra.sidecar.testsupport.Kustomize;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Rendered objects as JSON trees keyed by {@code kind namespace/name}: the chart's ({@code helm template}) and the
 * Kustomize injection's ({@code kubectl kustomize}), so that the two can be compared field by field.
 */
final class ChartRender {

    static final Path INJECTION = Path.of("deploy", "kubernetes", "injection");
    /** Node mode's kustomization: the chart's render with {@code mode=node}. */
    static final Path NODE = Path.of("deploy", "kubernetes", "node");
    /** The release name whose default render carries the Kustomize injection's names. */
    static final String RELEASE = "dra-metadata-sidecar";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper SORTED = new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .enable(SerializationFeature.INDENT_OUTPUT);

    private ChartRender() {}

    /** The objects of a multi-document YAML text. */
    static Map<String, ObjectNode> objects(String yaml) throws IOException {
        Map<String, ObjectNode> objects = new TreeMap<>();
        try (var documents = YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml)) {
            while (documents.hasNext()) {
                JsonNode document = documents.next();
                if (document == null || document.isNull() || document.isMissingNode() || document.isEmpty()) {
                    continue;
                }
                JsonNode metadata = document.path("metadata");
                String key = document.path("kind").asText() + " " + metadata.path("namespace").asText("") + "/"
                        + metadata.path("name").asText();
                if (objects.put(key, (ObjectNode) document) != null) {
                    throw new IOException("rendered twice: " + key);
                }
            }
        }
        return objects;
    }

    /**
     * The object as JSON with every map's keys sorted, and every CEL {@code expression} with its whitespace runs as
     * one space: equal for equal objects, and a readable difference. kubectl kustomize writes the policy's folded
     * ({@code >-}) expressions back with an extra line break before a more-indented line, and whitespace between CEL
     * tokens means nothing (the expressions have no string literal with a line break or two spaces in a row).
     */
    static String canonical(JsonNode object) throws IOException {
        JsonNode copy = object.deepCopy();
        foldExpressions(copy);
        return SORTED.writeValueAsString(SORTED.treeToValue(copy, Object.class));
    }

    private static void foldExpressions(JsonNode node) {
        if (node instanceof ObjectNode map && map.path("expression").isTextual()) {
            map.put("expression", map.get("expression").asText().strip().replaceAll("\\s+", " "));
        }
        node.forEach(ChartRender::foldExpressions);
    }

    /** The Kustomize injection's objects. */
    static Map<String, ObjectNode> kustomize() throws Exception {
        return kustomize(INJECTION);
    }

    /** The objects of the kustomization in {@code dir}. */
    static Map<String, ObjectNode> kustomize(Path dir) throws Exception {
        return objects(Kustomize.render(dir));
    }

    /** The namespace of the first object of {@code kind}. */
    static String namespaceOf(Map<String, ObjectNode> objects, String kind) {
        return objects.values().stream().filter(o -> o.path("kind").asText().equals(kind)).findFirst()
                .orElseThrow().path("metadata").path("namespace").asText();
    }

    /** {@code helm template} of the chart as release {@value #RELEASE} in {@code namespace}, with {@code args}. */
    static Map<String, ObjectNode> helm(String namespace, String... args) throws Exception {
        String[] command = new String[5 + args.length];
        command[0] = "template";
        command[1] = RELEASE;
        command[2] = Helm.CHART.toString();
        command[3] = "--namespace=" + namespace;
        command[4] = "--kube-version=1.37.2";
        System.arraycopy(args, 0, command, 5, args.length);
        return objects(Helm.offline().succeed(command));
    }

    /**
     * The object without the labels Helm's conventions put on every object a chart makes ({@code helm.sh/chart},
     * {@code app.kubernetes.io/*}): they name the release and the chart's version, which a kustomization has no
     * notion of; nothing selects by them.
     */
    static ObjectNode withoutHelmLabels(ObjectNode object) {
        ObjectNode copy = object.deepCopy();
        JsonNode labels = copy.path("metadata").path("labels");
        if (labels instanceof ObjectNode map) {
            for (Iterator<String> names = map.fieldNames(); names.hasNext();) {
                String name = names.next();
                if (name.equals("helm.sh/chart") || name.startsWith("app.kubernetes.io/")) {
                    names.remove();
                }
            }
            if (map.isEmpty()) {
                ((ObjectNode) copy.get("metadata")).remove("labels");
            }
        }
        return copy;
    }
}
