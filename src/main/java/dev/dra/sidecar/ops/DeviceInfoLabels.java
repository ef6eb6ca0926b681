package dev.dra.sidecar.ops;

import dev.dra.sidecar.snapshot.AttributeValue;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.DeviceEntry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The labels of one {@code dra_device_info} series. Every series carries the same label names (Prometheus
 * requires one label set per metric name): a device without an allow-listed attribute gets an empty value.
 */
final class DeviceInfoLabels {

    /** Label values are bounded so that a driver writing a long string cannot bloat every scrape. */
    static final int MAX_VALUE_LENGTH = 128;

    /** attribute name → label name, in configured order. */
    private final Map<String, String> attributeLabels = new LinkedHashMap<>();

    DeviceInfoLabels(List<String> attributes) {
        for (String attribute : attributes) {
            if (!attribute.isBlank()) {
                attributeLabels.put(attribute.trim(), labelName(attribute.trim()));
            }
        }
    }

    /** {@code attr_} plus the name with every character outside {@code [a-zA-Z0-9_]} replaced by {@code _}. */
    static String labelName(String attribute) {
        return "attr_" + attribute.replaceAll("[^a-zA-Z0-9_]", "_");
    }

    Tags of(ClaimKind kind, String claim, String request, DeviceEntry device) {
        List<Tag> tags = new ArrayList<>();
        tags.add(Tag.of("claim_kind", kind.apiSegment()));
        tags.add(Tag.of("claim", claim));
        tags.add(Tag.of("request", request));
        tags.add(Tag.of("driver", nonNull(device.driver())));
        tags.add(Tag.of("pool", nonNull(device.pool())));
        tags.add(Tag.of("device", nonNull(device.name())));
        attributeLabels.forEach((attribute, label) -> tags.add(Tag.of(label, value(device.attributes().get(attribute)))));
        return Tags.of(tags);
    }

    /** The bare value (as {@code Accept: text/plain} serves it), list items joined by commas. */
    private static String value(AttributeValue value) {
        if (value == null) {
            return "";
        }
        String text = new String(value.text().body(), StandardCharsets.UTF_8).strip().replace('\n', ',');
        return text.length() > MAX_VALUE_LENGTH ? text.substring(0, MAX_VALUE_LENGTH) : text;
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }
}
