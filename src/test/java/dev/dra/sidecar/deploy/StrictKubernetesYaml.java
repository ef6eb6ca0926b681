package dev.dra.sidecar.deploy;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import java.io.IOException;
import java.util.ArrayList;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Reads Kubernetes YAML into fabric8 model types and rejects every field the type does not have.
 *
 * <p>fabric8 model classes collect unknown fields in an {@code @JsonAnySetter} map, so
 * FAIL_ON_UNKNOWN_PROPERTIES alone never fires. The modifier below removes the any-setter from every bean
 * deserializer; an unknown (for example misspelled) field then fails like in {@code kubectl apply
 * --validate=strict}.
 */
final class StrictKubernetesYaml {

    /** The kinds the manifests in deploy/ may contain; anything else fails, so no file goes unchecked. */
    static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
            "v1/Namespace", Namespace.class,
            "apps/v1/Deployment", Deployment.class,
            "apps/v1/DaemonSet", DaemonSet.class,
            "v1/ServiceAccount", ServiceAccount.class,
            "v1/Service", Service.class,
            "rbac.authorization.k8s.io/v1/ClusterRole", ClusterRole.class,
            "rbac.authorization.k8s.io/v1/ClusterRoleBinding", ClusterRoleBinding.class,
            "resource.k8s.io/v1/ResourceClaim", ResourceClaim.class,
            "resource.k8s.io/v1/ResourceClaimTemplate", ResourceClaimTemplate.class);

    private static final ObjectMapper MAPPER = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .registerModule(new SimpleModule("no-any-setter").setDeserializerModifier(new BeanDeserializerModifier() {
                @Override
                public BeanDeserializerBuilder updateBuilder(DeserializationConfig config, BeanDescription description,
                        BeanDeserializerBuilder builder) {
                    builder.setAnySetter(null);
                    return builder;
                }
            }));

    private StrictKubernetesYaml() {}

    /** Every object of the YAML file {@code file}, parsed as {@link #parseAll} does. */
    static List<HasMetadata> parseFile(Path file) throws IOException {
        return parseAll(Files.readString(file), file.toString());
    }

    /** Every document of a (multi-document) YAML text, each bound to its fabric8 type. */
    static List<HasMetadata> parseAll(String yaml, String source) throws IOException {
        List<HasMetadata> objects = new ArrayList<>();
        try (var documents = MAPPER.readerFor(JsonNode.class).<JsonNode>readValues(yaml)) {
            while (documents.hasNext()) {
                JsonNode document = documents.next();
                if (document == null || document.isNull() || document.isMissingNode()) {
                    continue; // an empty document between two '---'
                }
                objects.add(bind(document, source));
            }
        }
        return objects;
    }

    static HasMetadata bind(JsonNode document, String source) throws IOException {
        String apiVersion = document.path("apiVersion").asText("");
        String kind = document.path("kind").asText("");
        Class<? extends HasMetadata> type = KINDS.get(apiVersion + "/" + kind);
        if (type == null) {
            throw new IOException(source + ": no model type registered for " + apiVersion + "/" + kind);
        }
        try {
            return MAPPER.treeToValue(document, type);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(source + " (" + kind + "): " + e.getOriginalMessage() + " at " + e.getLocation(), e);
        }
    }
}
