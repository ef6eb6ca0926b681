package dev.dra.sidecar.decode;

import dev.dra.sidecar.decode.gojson.GoMetaTypes;
import dev.dra.sidecar.decode.gojson.GoTypes;
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

    /** Our group's internal version, {@code metadata.resource.k8s.io/__internal}. */
    boolean isInternalVersion() {
        return group.equals(DeviceMetadata.GROUP) && version.equals(INTERNAL);
    }

    private static final String INTERNAL = "__internal";

    /**
     * The Go type the metadata scheme's {@code Scheme.New} creates for this group/version/kind, or {@code null}
     * where it has none ({@code NotRegistered}): {@code DeviceMetadata} in our versions and the internal one,
     * metav1's unversioned kinds in any group/version, {@code WatchEvent} and the {@code *Options} in our
     * versions, and {@code WatchEvent} in the internal one ({@link GoMetaTypes}).
     */
    GoTypes.Type goType() {
        GoTypes.Type unversioned = GoMetaTypes.UNVERSIONED.get(kind);
        if (unversioned != null) {
            return unversioned;
        }
        if (isKnownVersion()) {
            return kind.equals(DeviceMetadata.KIND) ? GoTypes.ROOT : GoMetaTypes.VERSIONED.get(kind);
        }
        if (isInternalVersion()) {
            return kind.equals(DeviceMetadata.KIND) ? GoTypes.INTERNAL
                    : kind.equals("WatchEvent") ? GoMetaTypes.INTERNAL_EVENT : null;
        }
        return null;
    }

    /**
     * Go's {@code Scheme.IsVersionRegistered}: the external group/versions types were registered in (it does not
     * count internal versions). An object of a kind the scheme has no type for is skipped as "unknown" only
     * outside these: our versions and the core version {@code v1}, where metav1's unversioned kinds are registered.
     */
    boolean isRegisteredVersion() {
        return isKnownVersion() || (group.isEmpty() && version.equals("v1"));
    }

    /** As Go's {@code GroupVersionKind.String}: {@code group/version, Kind=kind}. */
    @Override
    public String toString() {
        return group + "/" + version + ", Kind=" + kind;
    }
}
