package dev.dra.sidecar.decode;

import dev.dra.sidecar.model.DeviceMetadata;

/** The group/version/kind of a stream object, parsed as Kubernetes' {@code schema.ParseGroupVersion} does. */
record GroupVersionKind(String group, String version, String kind) {

    /** {@code null} when the apiVersion has more than one slash, which Kubernetes refuses. */
    static GroupVersionKind parse(String apiVersion, String kind) {
        int slash = apiVersion.indexOf('/');
        if (slash < 0) {
            return new GroupVersionKind("", apiVersion, kind);
        }
        if (apiVersion.indexOf('/', slash + 1) >= 0) {
            return null;
        }
        return new GroupVersionKind(apiVersion.substring(0, slash), apiVersion.substring(slash + 1), kind);
    }

    /** As Go's {@code GroupVersion.String}: the bare version for the core group. */
    String groupVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    boolean isKnownVersion() {
        String gv = groupVersion();
        return gv.equals(DeviceMetadata.V1BETA1) || gv.equals(DeviceMetadata.V1ALPHA1);
    }
}
