package dev.dra.sidecar.decode;

import dev.dra.sidecar.model.DeviceMetadata;
import java.util.Set;

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

    /**
     * The kinds {@code metav1.AddToGroupVersion} registers as unversioned: Go's {@code Scheme.New} creates
     * them for <em>any</em> group/version, so such an object decodes and then fails to convert instead of
     * being skipped.
     */
    private static final Set<String> UNVERSIONED_KINDS =
            Set.of("Status", "APIVersions", "APIGroupList", "APIGroup", "APIResourceList");

    /**
     * Whether Go's scheme knows this group/version but has no type for this kind in it, so that Go's decode fails
     * with "no kind ... is registered for version ...": any kind but {@code DeviceMetadata} in our versions, and any
     * kind but the unversioned ones in the core version {@code v1}.
     */
    boolean isUnregisteredInKnownGroupVersion() {
        if (isKnownVersion()) {
            return !kind.equals(DeviceMetadata.KIND);
        }
        return group.isEmpty() && version.equals("v1") && !UNVERSIONED_KINDS.contains(kind);
    }

    /**
     * Whether Go's reader skips an object of this group/version/kind as "unknown": only when the scheme has
     * no type for it ({@code NotRegistered}) and has never seen its group/version. Besides our own versions,
     * the scheme knows the unversioned kinds above, the core version {@code v1} (where they are registered)
     * and, for our group's internal version, {@code DeviceMetadata} and {@code WatchEvent}. Any of those is
     * fatal, not skipped.
     */
    boolean isSkippable() {
        if (isKnownVersion() || UNVERSIONED_KINDS.contains(kind)) {
            return false;
        }
        if (group.isEmpty() && version.equals("v1")) {
            return false;
        }
        boolean internal = group.equals(DeviceMetadata.GROUP) && version.equals("__internal");
        return !(internal && (kind.equals(DeviceMetadata.KIND) || kind.equals("WatchEvent")));
    }
}
