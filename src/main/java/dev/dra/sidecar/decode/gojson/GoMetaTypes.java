package dev.dra.sidecar.decode.gojson;

import static dev.dra.sidecar.decode.gojson.GoTypes.BOOL;
import static dev.dra.sidecar.decode.gojson.GoTypes.INT32;
import static dev.dra.sidecar.decode.gojson.GoTypes.INT64;
import static dev.dra.sidecar.decode.gojson.GoTypes.STRING;
import static dev.dra.sidecar.decode.gojson.GoTypes.TYPE_META;
import static dev.dra.sidecar.decode.gojson.GoTypes.UID;
import static dev.dra.sidecar.decode.gojson.GoTypes.pointer;
import static dev.dra.sidecar.decode.gojson.GoTypes.scalar;
import static dev.dra.sidecar.decode.gojson.GoTypes.slice;
import static dev.dra.sidecar.decode.gojson.GoTypes.struct;

import dev.dra.sidecar.decode.gojson.GoTypes.Kind;
import dev.dra.sidecar.decode.gojson.GoTypes.Type;
import java.util.Map;

/**
 * The kinds {@code metav1.AddToGroupVersion} puts into the metadata scheme besides {@code DeviceMetadata}, with the
 * Go types (JSON members) they decode into (apimachinery v0.37.2):
 * <ul>
 * <li>{@link #UNVERSIONED} in every group/version ({@code Scheme.New} creates an unversioned kind for any);
 * <li>{@link #VERSIONED} in {@code v1alpha1} and {@code v1beta1}: {@code WatchEvent} and the {@code *Options};
 * <li>{@link #INTERNAL_EVENT} as {@code WatchEvent} in the group's internal version.
 * </ul>
 * Go decodes such an object into its own type and then cannot convert it into a {@code DeviceMetadata}.
 */
public final class GoMetaTypes {

    private static final Type DRY_RUN = slice(STRING);
    private static final Type SERVER_ADDRESSES = slice(struct("v1.ServerAddressByClientCIDR", "clientCIDR", STRING,
            "serverAddress", STRING));
    private static final Type GROUP_VERSION = struct("v1.GroupVersionForDiscovery", "groupVersion", STRING,
            "version", STRING);
    private static final Type API_GROUP = struct("v1.APIGroup", TYPE_META, "name", STRING, "versions",
            slice(GROUP_VERSION), "preferredVersion", GROUP_VERSION, "serverAddressByClientCIDRs", SERVER_ADDRESSES);
    private static final Type LIST_META = struct("v1.ListMeta", "selfLink", STRING, "resourceVersion", STRING,
            "continue", STRING, "remainingItemCount", pointer(INT64),
            "shardInfo", pointer(struct("v1.ShardInfo", "selector", STRING)));
    private static final Type STATUS_DETAILS = struct("v1.StatusDetails", "name", STRING, "group", STRING,
            "kind", STRING, "uid", UID, "causes", slice(struct("v1.StatusCause",
                    "reason", scalar("v1.CauseType", Kind.STRING), "message", STRING, "field", STRING)),
            "retryAfterSeconds", INT32);
    private static final Type API_RESOURCE = struct("v1.APIResource", "name", STRING, "singularName", STRING,
            "namespaced", BOOL, "group", STRING, "version", STRING, "kind", STRING,
            "verbs", slice("v1.Verbs", STRING), "shortNames", slice(STRING), "categories", slice(STRING),
            "storageVersionHash", STRING);

    public static final Map<String, Type> UNVERSIONED = Map.of(
            "Status", struct("v1.Status", TYPE_META, "metadata", LIST_META, "status", STRING, "message", STRING,
                    "reason", scalar("v1.StatusReason", Kind.STRING), "details", pointer(STATUS_DETAILS),
                    "code", INT32),
            "APIVersions", struct("v1.APIVersions", TYPE_META, "versions", slice(STRING),
                    "serverAddressByClientCIDRs", SERVER_ADDRESSES),
            "APIGroupList", struct("v1.APIGroupList", TYPE_META, "groups", slice(API_GROUP)),
            "APIGroup", API_GROUP,
            "APIResourceList", struct("v1.APIResourceList", TYPE_META, "groupVersion", STRING,
                    "resources", slice(API_RESOURCE)));

    public static final Map<String, Type> VERSIONED = Map.of(
            "WatchEvent", struct("v1.WatchEvent", "type", STRING, "object", scalar("runtime.RawExtension", Kind.ANY)),
            "ListOptions", struct("v1.ListOptions", TYPE_META, "labelSelector", STRING, "fieldSelector", STRING,
                    "watch", BOOL, "allowWatchBookmarks", BOOL, "resourceVersion", STRING,
                    "resourceVersionMatch", scalar("v1.ResourceVersionMatch", Kind.STRING),
                    "timeoutSeconds", pointer(INT64), "limit", INT64, "continue", STRING,
                    "sendInitialEvents", pointer(BOOL), "shardSelector", STRING),
            "GetOptions", struct("v1.GetOptions", TYPE_META, "resourceVersion", STRING),
            "DeleteOptions", struct("v1.DeleteOptions", TYPE_META, "gracePeriodSeconds", pointer(INT64),
                    "preconditions", pointer(struct("v1.Preconditions", "uid", pointer(UID),
                            "resourceVersion", pointer(STRING))),
                    "orphanDependents", pointer(BOOL),
                    "propagationPolicy", pointer(scalar("v1.DeletionPropagation", Kind.STRING)),
                    "dryRun", DRY_RUN, "ignoreStoreReadErrorWithClusterBreakingPotential", pointer(BOOL)),
            "CreateOptions", struct("v1.CreateOptions", TYPE_META, "dryRun", DRY_RUN, "fieldManager", STRING,
                    "fieldValidation", STRING),
            "UpdateOptions", struct("v1.UpdateOptions", TYPE_META, "dryRun", DRY_RUN, "fieldManager", STRING,
                    "fieldValidation", STRING),
            "PatchOptions", struct("v1.PatchOptions", TYPE_META, "dryRun", DRY_RUN, "force", pointer(BOOL),
                    "fieldManager", STRING, "fieldValidation", STRING));

    /** {@code watch.Event} as {@code metav1.InternalEvent}: untagged members, an interface Go cannot fill. */
    public static final Type INTERNAL_EVENT = struct("v1.InternalEvent", "Type", scalar("watch.EventType", Kind.STRING),
            "Object", pointer(scalar("runtime.Object", Kind.NONE)));

    private GoMetaTypes() {}
}
