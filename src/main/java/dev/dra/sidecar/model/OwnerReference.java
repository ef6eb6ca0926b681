package dev.dra.sidecar.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"})
public record OwnerReference(
        String apiVersion, String kind, String name, String uid, Boolean controller, Boolean blockOwnerDeletion) {}
