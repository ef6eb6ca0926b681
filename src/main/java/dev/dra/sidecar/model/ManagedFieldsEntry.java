package dev.dra.sidecar.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

/** @param fieldsV1 kept as raw JSON, as Go's {@code FieldsV1} keeps its bytes */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"manager", "operation", "apiVersion", "time", "fieldsType", "fieldsV1", "subresource"})
public record ManagedFieldsEntry(
        String manager,
        String operation,
        String apiVersion,
        @JsonDeserialize(using = KubernetesTime.Deserializer.class) String time,
        String fieldsType,
        @Schema(description = "Field set, kept as raw JSON") JsonNode fieldsV1,
        String subresource) {}
