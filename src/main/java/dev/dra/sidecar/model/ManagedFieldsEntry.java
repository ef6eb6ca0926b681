package dev.dra.sidecar.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

/**
 * @param fieldsV1 the value as the file wrote it, with the whitespace outside strings removed: what Go's
 *     writer emits for the raw bytes its {@code FieldsV1} keeps
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"manager", "operation", "apiVersion", "time", "fieldsType", "fieldsV1", "subresource"})
public record ManagedFieldsEntry(
        String manager,
        String operation,
        String apiVersion,
        @JsonDeserialize(using = KubernetesTime.Deserializer.class) String time,
        String fieldsType,
        @Schema(description = "Field set, served token for token as the file wrote it")
        @JsonDeserialize(using = RawJson.Deserializer.class) RawJson fieldsV1,
        String subresource) {}
