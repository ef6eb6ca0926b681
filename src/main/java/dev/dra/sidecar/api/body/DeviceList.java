package dev.dra.sidecar.api.body;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.dra.sidecar.model.DeviceAttribute;
import dev.dra.sidecar.model.NetworkDeviceData;
import dev.dra.sidecar.snapshot.DeviceEntry;
import dev.dra.sidecar.snapshot.Served;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * {@code GET /devices}: every selected device of the pod, claims before template claims, each kind's claims and
 * requests sorted by name, each request's devices in serving order.
 */
@Schema(name = "DeviceList", description = "Every device this container sees that the filters keep")
public record DeviceList(List<Entry> devices) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"kind", "claim", "request", "driver", "pool", "name", "attributes", "networkData"})
    @Schema(name = "DeviceListEntry", description = "One device and the claim and request it was allocated for")
    record Entry(
            @Schema(description = "Claim kind, as in the path", enumeration = {"claims", "template-claims"}) String kind,
            @Schema(description = "Claim (or pod claim) name", examples = "gpu-claim") String claim,
            @Schema(description = "Top-level request name", examples = "gpu") String request,
            @Schema(examples = "gpu.example.com") String driver,
            @Schema(examples = "worker-0") String pool,
            @Schema(examples = "gpu-0") String name,
            @Schema(implementation = AttributeMap.class,
                    description = "Typed attribute values keyed by (qualified) attribute name") RawValue attributes,
            NetworkDeviceData networkData) {}

    /** What {@code attributes} is on the wire, for the OpenAPI document: the snapshot's bytes are written as they are. */
    private abstract static class AttributeMap extends java.util.TreeMap<String, DeviceAttribute> {}

    public static Served.Available json(DeviceSelection selection) {
        List<Entry> entries = selection.devices().stream().map(s -> {
            DeviceEntry d = s.device();
            return new Entry(s.kind().apiSegment(), s.claim(), s.request(), d.driver(), d.pool(), d.name(),
                    attributes(d), d.networkData());
        }).toList();
        return DerivedBodies.json(new DeviceList(entries), selection);
    }

    /** The attributes object in the snapshot's key order, each value as the snapshot encoded it. */
    private static RawValue attributes(DeviceEntry device) {
        if (device.attributes().isEmpty()) {
            return null;
        }
        StringBuilder json = new StringBuilder("{");
        for (Map.Entry<String, dev.dra.sidecar.snapshot.AttributeValue> a : device.attributes().entrySet()) {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append(DerivedBodies.quoted(a.getKey())).append(':').append(AttributeText.json(a.getValue()).rawValue());
        }
        return new RawValue(json.append('}').toString());
    }
}
