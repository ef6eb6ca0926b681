package dev.dra.sidecar.api.body;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.dra.sidecar.model.DeviceAttribute;
import dev.dra.sidecar.snapshot.AttributeValue;
import dev.dra.sidecar.snapshot.Served;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One attribute across the selected devices, in serving order: every device is listed, the ones without the
 * attribute too, so positions never shift.
 *
 * <p>{@code text/plain} ({@link #text}): for each device its value's text items, one per line, as the per-device
 * attribute answer writes them; a device without the attribute (or with an empty list) is one empty line. A script
 * sees the gap ({@code a,,c} after {@code paste -sd, -}) instead of a shorter list.
 *
 * @param attribute the attribute name asked for
 * @param devices one entry per selected device
 */
@JsonPropertyOrder({"attribute", "devices"})
@Schema(name = "AttributeColumn", description = "One attribute of each selected device, in serving order; a device "
        + "without the attribute is listed without value")
public record AttributeColumn(
        @Schema(examples = "uuid") String attribute,
        List<Cell> devices) {

    /**
     * @param kind the device's claim kind: only in the pod-wide answer ({@code /devices/...}), as are
     *     {@code claim} and {@code request}
     * @param value the typed value; absent when the device does not have the attribute
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"kind", "claim", "request", "driver", "pool", "name", "value"})
    @Schema(name = "AttributeCell", description = "One device and its value of the attribute")
    record Cell(
            @Schema(description = "Claim kind, as in the path: claims or template-claims (pod-wide answer only)",
                    enumeration = {"claims", "template-claims"}) String kind,
            @Schema(description = "Claim (or pod claim) name (pod-wide answer only)", examples = "gpu-claim") String claim,
            @Schema(description = "Top-level request name (pod-wide answer only)", examples = "gpu") String request,
            @Schema(examples = "gpu.example.com") String driver,
            @Schema(examples = "worker-0") String pool,
            @Schema(examples = "gpu-0") String name,
            @Schema(implementation = DeviceAttribute.class) RawValue value) {}

    /** The JSON answer; {@code podWide} adds each device's claim kind, claim and request. */
    public static Served.Available json(DeviceSelection selection, String attribute, boolean podWide) {
        List<Cell> cells = selection.devices().stream().map(s -> {
            AttributeValue value = s.device().attributes().get(attribute);
            return new Cell(podWide ? s.kind().apiSegment() : null, podWide ? s.claim() : null,
                    podWide ? s.request() : null, s.device().driver(), s.device().pool(), s.device().name(),
                    value == null ? null : AttributeText.json(value));
        }).toList();
        return DerivedBodies.json(new AttributeColumn(attribute, cells), selection);
    }

    /** The {@code text/plain} answer: each device's lines, or an empty line for a device without a value. */
    public static Served.Available text(DeviceSelection selection, String attribute) {
        StringBuilder text = new StringBuilder();
        for (DeviceSelection.Selected s : selection.devices()) {
            AttributeValue value = s.device().attributes().get(attribute);
            List<String> lines = value == null ? List.of() : AttributeText.of(value).lines();
            if (lines.isEmpty()) {
                text.append('\n');
            }
            lines.forEach(line -> text.append(line).append('\n'));
        }
        return DerivedBodies.text(text.toString(), selection);
    }
}
