package dev.dra.sidecar.decode;

import dev.dra.sidecar.model.Device;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.model.DeviceMetadataRequest;
import dev.dra.sidecar.model.ObjectMeta;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Merges the decoded files of one request directory as Go's {@code ReadResourceClaimMetadata} does: files in
 * byte order of their names, requests with the same name concatenate their devices, {@code podClaimName}
 * from the first file that has one. Unlike Go, the merged {@code metadata} keeps name, namespace and uid when
 * every file agrees on all three (and is empty otherwise); it never carries a generation, which is per file.
 */
public final class RequestMerger {

    /** Byte order of UTF-8 names, as Go's {@code filepath.Glob} sorts them. */
    public static final Comparator<String> BYTE_ORDER =
            (a, b) -> Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    private RequestMerger() {}

    /**
     * @param files decoded files keyed by file name, in any order
     * @return the merged object, labelled v1beta1
     */
    public static DeviceMetadata merge(Map<String, DeviceMetadata> files) {
        List<String> names = new ArrayList<>(files.keySet());
        names.sort(BYTE_ORDER);
        String podClaimName = null;
        Map<String, List<Device>> devicesByRequest = new LinkedHashMap<>();
        ObjectMeta identity = null;
        boolean identityAgrees = true;
        for (String name : names) {
            DeviceMetadata file = files.get(name);
            if (podClaimName == null) {
                podClaimName = file.podClaimName();
            }
            if (file.requests() != null) {
                for (DeviceMetadataRequest request : file.requests()) {
                    List<Device> devices = devicesByRequest.computeIfAbsent(request.name(), k -> new ArrayList<>());
                    if (request.devices() != null) {
                        devices.addAll(request.devices());
                    }
                }
            }
            ObjectMeta fileIdentity = identityOf(file.metadata());
            if (identity == null) {
                identity = fileIdentity;
            } else if (!identity.equals(fileIdentity)) {
                identityAgrees = false;
            }
        }
        List<DeviceMetadataRequest> requests = new ArrayList<>(devicesByRequest.size());
        devicesByRequest.forEach((name, devices) ->
                requests.add(new DeviceMetadataRequest(name, devices.isEmpty() ? null : List.copyOf(devices))));
        ObjectMeta metadata = identityAgrees && identity != null ? identity : ObjectMeta.identity(null, null, null);
        return new DeviceMetadata(DeviceMetadata.KIND, DeviceMetadata.V1BETA1, metadata, podClaimName,
                requests.isEmpty() ? null : List.copyOf(requests));
    }

    private static ObjectMeta identityOf(ObjectMeta meta) {
        if (meta == null) {
            return ObjectMeta.identity(null, null, null);
        }
        return ObjectMeta.identity(meta.name(), meta.namespace(), meta.uid());
    }

}
