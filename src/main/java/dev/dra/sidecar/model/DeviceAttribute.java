package dev.dra.sidecar.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A typed attribute value. Upstream says exactly one member is set, but decoding keeps every member
 * independently (the upstream HEAD fixture sets all eight); the validator reports the union rule.
 * {@code int} members are 64-bit and exact.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"int", "bool", "string", "version", "ints", "bools", "strings", "versions"})
@Schema(name = "DeviceAttribute", description = "A typed value: exactly one member is set in valid metadata",
        examples = "{\"string\": \"LATEST-GPU-MODEL\"}")
public record DeviceAttribute(
        @JsonProperty("int") Long intValue,
        @JsonProperty("bool") Boolean boolValue,
        @JsonProperty("string") String stringValue,
        @JsonProperty("version") String versionValue,
        @JsonProperty("ints") List<Long> ints,
        @JsonProperty("bools") List<Boolean> bools,
        @JsonProperty("strings") List<String> strings,
        @JsonProperty("versions") List<String> versions) {

    /** Names of the members that count as set (lists only when non-empty), in declaration order. */
    public List<String> setMembers() {
        List<String> set = new ArrayList<>(1);
        if (intValue != null) set.add("int");
        if (boolValue != null) set.add("bool");
        if (stringValue != null) set.add("string");
        if (versionValue != null) set.add("version");
        if (ints != null && !ints.isEmpty()) set.add("ints");
        if (bools != null && !bools.isEmpty()) set.add("bools");
        if (strings != null && !strings.isEmpty()) set.add("strings");
        if (versions != null && !versions.isEmpty()) set.add("versions");
        return set;
    }

    /**
     * The value as plain text lines, for {@code Accept: text/plain}: a scalar is one line, a list one line per
     * item. Members appear in declaration order when a (non-conforming) attribute sets several.
     */
    public List<String> textLines() {
        List<String> lines = new ArrayList<>();
        if (intValue != null) lines.add(intValue.toString());
        if (boolValue != null) lines.add(boolValue.toString());
        if (stringValue != null) lines.add(stringValue);
        if (versionValue != null) lines.add(versionValue);
        if (ints != null) ints.forEach(v -> lines.add(String.valueOf(v)));
        if (bools != null) bools.forEach(v -> lines.add(String.valueOf(v)));
        if (strings != null) lines.addAll(strings);
        if (versions != null) lines.addAll(versions);
        return lines;
    }
}
