package dev.dra.sidecar.testsupport;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The sidecar injection policy's parameters (deploy/kubernetes/injection/policy.yaml, the chart's policy): its first
 * variable, {@value #VARIABLE}, a JSON object of strings that is also a CEL map literal. Read and replaced here as an
 * admin edits them, at {@code /spec/variables/0/expression}, the path deploy/kubernetes/README.md's overlay patches.
 */
public final class InjectionParameters {

    /** The name of the policy's first variable. */
    public static final String VARIABLE = "parameters";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Writes strings as Go's encoding/json does in one respect that matters to CEL: non-ASCII characters escaped. */
    private static final ObjectMapper ASCII = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    private InjectionParameters() {
    }

    /** The parameters of {@code policy}, a MutatingAdmissionPolicy as a JSON tree; fails unless they are its first variable. */
    public static Map<String, String> of(JsonNode policy) {
        JsonNode first = policy.path("spec").path("variables").path(0);
        if (!VARIABLE.equals(first.path("name").asText())) {
            throw new IllegalArgumentException("the policy's first variable is not " + VARIABLE + ": " + first);
        }
        try {
            Map<String, String> parameters = new TreeMap<>();
            JSON.readTree(first.path("expression").asText()).properties()
                    .forEach(e -> parameters.put(e.getKey(), e.getValue().textValue()));
            return parameters;
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The parameters of {@code policy}, a MutatingAdmissionPolicy as the client loads it. */
    public static Map<String, String> of(HasMetadata policy) {
        return of((JsonNode) JSON.valueToTree(policy));
    }

    /** {@code policy} with its parameters replaced by what {@code edit} makes of a copy of them. */
    public static GenericKubernetesResource edited(HasMetadata policy, Consumer<Map<String, String>> edit) {
        ObjectNode tree = JSON.valueToTree(policy);
        Map<String, String> parameters = of(tree);
        edit.accept(parameters);
        ((ObjectNode) tree.path("spec").path("variables").path(0)).put("expression", expression(parameters));
        return JSON.convertValue(tree, GenericKubernetesResource.class);
    }

    /**
     * Whether {@code sidecar} (null: none injected) is what shipped parameters naming {@code image} make: that image,
     * and no environment variable but the expected claims the policy derives (no settings).
     */
    public static boolean shipped(Container sidecar, String image) {
        return sidecar != null && image.equals(sidecar.getImage())
                && sidecar.getEnv().stream().map(EnvVar::getName).toList().equals(List.of("DRA_METADATA_EXPECTED_CLAIMS"));
    }

    /** The expression as the chart writes it: pretty JSON, one parameter a line, the keys sorted. */
    static String expression(Map<String, String> parameters) {
        return new TreeMap<>(parameters).entrySet().stream()
                .map(e -> "  " + string(e.getKey()) + ": " + string(e.getValue()))
                .collect(Collectors.joining(",\n", "{\n", "\n}"));
    }

    private static String string(String value) {
        try {
            return ASCII.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
