package dev.dra.sidecar.decode;

import dev.dra.sidecar.model.Device;
import dev.dra.sidecar.model.DeviceAttribute;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.model.DeviceMetadataRequest;
import dev.dra.sidecar.model.ManagedFieldsEntry;
import dev.dra.sidecar.model.NetworkDeviceData;
import dev.dra.sidecar.model.OwnerReference;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The upstream v1beta1 validation rules for {@code DeviceMetadata} (identical for v1alpha1), with apimachinery's
 * declarative rules for its {@code metadata} (v0.37: owner references and managed fields entries). Validation is
 * reported apart from decoding, as with Go's {@code DecodeMetadataWithValidationResult}: an invalid object
 * still decodes. Attribute keys, scalar string lengths, semver syntax and IP syntax are not validated
 * upstream, so not here either.
 */
public final class MetadataValidator {

    private static final int MAX_ATTRIBUTES = 32;
    private static final int MAX_DRIVER_NAME = 63;
    private static final int MAX_POOL_NAME = 253;
    /**
     * A pool name within its length limit has at most this many segments (all of them empty). A longer one is
     * too long already; its segments past these are not examined but reported as one violation
     * ({@link #POOL_SEGMENTS_NOT_EXAMINED}), where Go reports one per segment: a file of slashes would otherwise
     * make a report dozens of times its size.
     */
    static final int MAX_POOL_SEGMENTS = MAX_POOL_NAME + 1;
    static final String POOL_SEGMENTS_NOT_EXAMINED = "segments past " + MAX_POOL_SEGMENTS + " are not examined";
    private static final int MAX_STRING_ITEM_BYTES = 64;
    private static final int MAX_INTERFACE_NAME_BYTES = 256;
    private static final int MAX_HARDWARE_ADDRESS_BYTES = 128;
    private static final int MAX_IPS = 16;
    private static final Set<String> MANAGED_FIELDS_OPERATIONS = Set.of("Apply", "Update");

    private MetadataValidator() {}

    /** Every violation of {@code object}, in field order; empty when it is valid. */
    public static List<Violation> validate(DeviceMetadata object) {
        List<Violation> out = new ArrayList<>();
        if (object.metadata() != null && object.metadata().generation() != null && object.metadata().generation() < 0) {
            out.add(new Violation("metadata.generation", "Invalid", "must be greater than or equal to 0"));
        }
        if (object.metadata() != null) {
            ownerReferences(out, object.metadata().ownerReferences());
            managedFields(out, object.metadata().managedFields());
        }
        if (object.podClaimName() != null) {
            dnsLabel(out, "podClaimName", object.podClaimName());
        }
        List<DeviceMetadataRequest> requests = object.requests() == null ? List.of() : object.requests();
        for (int r = 0; r < requests.size(); r++) {
            DeviceMetadataRequest request = requests.get(r);
            String at = "requests[" + r + "]";
            if (request.name() == null || request.name().isEmpty()) {
                out.add(new Violation(at + ".name", "Required", "the request name is required"));
            }
            List<Device> devices = request.devices() == null ? List.of() : request.devices();
            for (int d = 0; d < devices.size(); d++) {
                device(out, at + ".devices[" + d + "]", devices.get(d));
            }
        }
        return List.copyOf(out);
    }

    private static void device(List<Violation> out, String at, Device device) {
        if (isEmpty(device.driver())) {
            out.add(new Violation(at + ".driver", "Required", "the driver name is required"));
        } else {
            for (String problem : DnsNames.subdomainProblems(device.driver(), true)) {
                out.add(new Violation(at + ".driver", "Invalid", problem));
            }
            if (device.driver().codePointCount(0, device.driver().length()) > MAX_DRIVER_NAME) {
                out.add(new Violation(at + ".driver", "TooLong", "must be no more than " + MAX_DRIVER_NAME + " characters"));
            }
        }
        pool(out, at + ".pool", device.pool());
        if (isEmpty(device.name())) {
            out.add(new Violation(at + ".name", "Required", "the device name is required"));
        } else {
            dnsLabel(out, at + ".name", device.name());
        }
        if (device.attributes() != null) {
            if (device.attributes().size() > MAX_ATTRIBUTES) {
                // a short-circuiting rule upstream: the attributes themselves are not looked at
                out.add(new Violation(at + ".attributes", "TooMany",
                        "must have at most " + MAX_ATTRIBUTES + " attributes, has " + device.attributes().size()));
            } else {
                for (Map.Entry<String, DeviceAttribute> e : device.attributes().entrySet()) {
                    attribute(out, at + ".attributes[" + e.getKey() + "]", e.getValue());
                }
            }
        }
        if (device.networkData() != null) {
            networkData(out, at + ".networkData", device.networkData());
        }
    }

    /** apimachinery's declarative ObjectMeta rules: every owner reference names its owner completely. */
    private static void ownerReferences(List<Violation> out, List<OwnerReference> references) {
        if (references == null) {
            return;
        }
        for (int i = 0; i < references.size(); i++) {
            OwnerReference reference = references.get(i);
            String at = "metadata.ownerReferences[" + i + "]";
            required(out, at + ".apiVersion", reference == null ? null : reference.apiVersion());
            required(out, at + ".kind", reference == null ? null : reference.kind());
            required(out, at + ".name", reference == null ? null : reference.name());
            required(out, at + ".uid", reference == null ? null : reference.uid());
        }
    }

    /** apimachinery's declarative ObjectMeta rules: every managed fields entry says its operation, Apply or Update. */
    private static void managedFields(List<Violation> out, List<ManagedFieldsEntry> entries) {
        if (entries == null) {
            return;
        }
        for (int i = 0; i < entries.size(); i++) {
            String operation = entries.get(i) == null ? null : entries.get(i).operation();
            String at = "metadata.managedFields[" + i + "].operation";
            if (isEmpty(operation)) {
                out.add(new Violation(at, "Required", "the operation is required"));
            } else if (!MANAGED_FIELDS_OPERATIONS.contains(operation)) {
                out.add(new Violation(at, "NotSupported", "supported values: \"Apply\", \"Update\""));
            }
        }
    }

    private static void required(List<Violation> out, String at, String value) {
        if (isEmpty(value)) {
            out.add(new Violation(at, "Required", "a value is required"));
        }
    }

    private static void pool(List<Violation> out, String at, String pool) {
        if (isEmpty(pool)) {
            out.add(new Violation(at, "Required", "the pool name is required"));
            return;
        }
        if (bytes(pool) > MAX_POOL_NAME) {
            out.add(new Violation(at, "TooLong", "must be no more than " + MAX_POOL_NAME + " bytes"));
        }
        int from = 0;
        for (int i = 0; from <= pool.length(); i++) {
            if (i == MAX_POOL_SEGMENTS) {
                out.add(new Violation(at, "Invalid", POOL_SEGMENTS_NOT_EXAMINED));
                return;
            }
            int slash = pool.indexOf('/', from);
            int to = slash < 0 ? pool.length() : slash;
            if (from == to) {
                out.add(new Violation(at, "Invalid", "segment " + i + ": must not be empty"));
            } else {
                for (String problem : DnsNames.subdomainProblems(pool.substring(from, to), false)) {
                    out.add(new Violation(at, "Invalid", "segment " + i + ": " + problem));
                }
            }
            from = to + 1;
        }
    }

    private static void attribute(List<Violation> out, String at, DeviceAttribute value) {
        if (value == null) {
            out.add(new Violation(at, "Invalid", "exactly one value must be specified"));
            return;
        }
        List<String> set = value.setMembers();
        if (set.isEmpty()) {
            out.add(new Violation(at, "Invalid", "exactly one value must be specified"));
        } else if (set.size() > 1) {
            out.add(new Violation(at, "Invalid", "exactly one value must be specified, found " + String.join(", ", set)));
        }
        if (value.strings() != null) {
            for (int i = 0; i < value.strings().size(); i++) {
                String s = value.strings().get(i);
                if (s != null && bytes(s) > MAX_STRING_ITEM_BYTES) {
                    out.add(new Violation(at + ".strings[" + i + "]", "TooLong",
                            "must be no more than " + MAX_STRING_ITEM_BYTES + " bytes"));
                }
            }
        }
    }

    private static void networkData(List<Violation> out, String at, NetworkDeviceData data) {
        if (data.interfaceName() != null && bytes(data.interfaceName()) > MAX_INTERFACE_NAME_BYTES) {
            out.add(new Violation(at + ".interfaceName", "TooLong",
                    "must be no more than " + MAX_INTERFACE_NAME_BYTES + " bytes"));
        }
        if (data.hardwareAddress() != null && bytes(data.hardwareAddress()) > MAX_HARDWARE_ADDRESS_BYTES) {
            out.add(new Violation(at + ".hardwareAddress", "TooLong",
                    "must be no more than " + MAX_HARDWARE_ADDRESS_BYTES + " bytes"));
        }
        if (data.ips() != null) {
            if (data.ips().size() > MAX_IPS) {
                // a short-circuiting rule upstream: the items are not looked at
                out.add(new Violation(at + ".ips", "TooMany", "must have at most " + MAX_IPS + " items"));
                return;
            }
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < data.ips().size(); i++) {
                if (!seen.add(data.ips().get(i))) {
                    out.add(new Violation(at + ".ips[" + i + "]", "Duplicate", "duplicate value " + data.ips().get(i)));
                }
            }
        }
    }

    private static void dnsLabel(List<Violation> out, String at, String value) {
        for (String problem : DnsNames.labelProblems(value)) {
            out.add(new Violation(at, "Invalid", problem));
        }
    }

    private static boolean isEmpty(String s) {
        return s == null || s.isEmpty();
    }

    private static int bytes(String s) {
        return DnsNames.utf8Length(s);
    }
}
