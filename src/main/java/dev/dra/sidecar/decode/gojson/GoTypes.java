package dev.dra.sidecar.decode.gojson;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonMappingException;
import dev.dra.sidecar.model.KubernetesTime;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Go types behind the JSON of a {@code DeviceMetadata} object (versioned and internal; the metav1 kinds are
 * in {@link GoMetaTypes}), so that a value of the wrong JSON type is reported in the words of Go's
 * {@code encoding/json}:
 * {@code json: cannot unmarshal string into Go struct field DeviceMetadata.requests of type []v1beta1.DeviceMetadataRequest}.
 *
 * <p>As Go words it: the struct is the innermost struct whose field was entered, the field path joins the
 * JSON names of the struct fields from the root (list indices and map keys are not part of it; a member of an
 * embedded struct follows the embedded struct's Go name), the type is
 * the Go type of the value that failed with pointers removed, and a number that does not fit an integer is
 * quoted ({@code number 2.5}; a literal longer than {@value #MAX_LITERAL} characters is cut there and marked
 * with {@code ...}, so that the field path stays in a short detail).
 */
public final class GoTypes {

    /**
     * {@code ANY} takes every JSON value as written ({@code FieldsV1}, {@code RawExtension}); {@code NONE} takes
     * only {@code null} (an interface such as {@code runtime.Object}, which Go cannot make a value of).
     */
    public enum Kind { STRING, INT32, INT64, BOOL, ANY, NONE, STRUCT, SLICE, MAP }

    /**
     * A Go type, as far as {@code encoding/json} decoding into it goes.
     *
     * @param name as Go's {@code reflect.Type.String} prints it; {@code %s} stands for the object's version
     *     package ({@code v1alpha1} or {@code v1beta1})
     * @param nullResets whether {@code null} sets the value to nil or zero (a pointer, slice, map or a type
     *     that unmarshals itself); otherwise {@code null} leaves the value as it was
     * @param embedded for the members of an embedded struct, its Go name, which Go's type errors put before the
     *     member's ({@code DeviceMetadata.ObjectMeta.generation})
     */
    public record Type(String name, Kind kind, Type elem, Map<String, Type> fields, boolean nullResets,
            Map<String, String> embedded) {
        String structName() {
            return name.substring(name.indexOf('.') + 1);
        }

        /** The member's part of a type error's field path. */
        String path(String member) {
            String in = embedded.get(member);
            return in == null ? member : in + "." + member;
        }
    }

    static Type scalar(String name, Kind kind) {
        return new Type(name, kind, null, Map.of(), false, Map.of());
    }

    static Type pointer(Type type) {
        return new Type(type.name(), type.kind(), type.elem(), type.fields(), true, type.embedded());
    }

    static Type slice(Type elem) {
        return slice("[]" + elem.name(), elem);
    }

    static Type slice(String name, Type elem) {
        return new Type(name, Kind.SLICE, elem, Map.of(), true, Map.of());
    }

    static Type map(String name, Type elem) {
        return new Type(name, Kind.MAP, elem, Map.of(), true, Map.of());
    }

    static Type struct(String name, Object... fieldsAndTypes) {
        Map<String, Type> fields = new LinkedHashMap<>();
        Map<String, String> embedded = new LinkedHashMap<>();
        for (int i = 0; i < fieldsAndTypes.length; i += 2) {
            if (fieldsAndTypes[i] instanceof Type struct) { // an embedded struct: its fields are promoted
                fields.putAll(struct.fields());
                struct.fields().keySet().forEach(member -> embedded.put(member, struct.structName()));
                i--;
                continue;
            }
            fields.put((String) fieldsAndTypes[i], (Type) fieldsAndTypes[i + 1]);
        }
        return new Type(name, Kind.STRUCT, null, Map.copyOf(fields), false, Map.copyOf(embedded));
    }

    static final Type STRING = scalar("string", Kind.STRING);
    static final Type INT32 = scalar("int32", Kind.INT32);
    static final Type INT64 = scalar("int64", Kind.INT64);
    static final Type BOOL = scalar("bool", Kind.BOOL);
    static final Type UID = scalar("types.UID", Kind.STRING);
    /** {@code metav1.TypeMeta}, embedded in every kind. */
    static final Type TYPE_META = struct("v1.TypeMeta", "kind", STRING, "apiVersion", STRING);
    /**
     * {@code metav1.Time} unmarshals a JSON string itself: a type error names {@code string}, and any failure
     * stops Go's decoder at once (see {@link #firstError}).
     */
    private static final Type TIME = pointer(scalar("string", Kind.STRING));
    /** Takes any JSON value and keeps it as written. */
    static final Type FIELDS_V1 = pointer(scalar("v1.FieldsV1", Kind.ANY));

    private static final Type OWNER_REFERENCE = struct("v1.OwnerReference", "apiVersion", STRING, "kind", STRING,
            "name", STRING, "uid", UID, "controller", pointer(BOOL), "blockOwnerDeletion", pointer(BOOL));
    private static final Type MANAGED_FIELDS_ENTRY = struct("v1.ManagedFieldsEntry", "manager", STRING,
            "operation", scalar("v1.ManagedFieldsOperationType", Kind.STRING), "apiVersion", STRING, "time", TIME,
            "fieldsType", STRING, "fieldsV1", FIELDS_V1, "subresource", STRING);
    private static final Type OBJECT_META = struct("v1.ObjectMeta", "name", STRING, "generateName", STRING,
            "namespace", STRING, "selfLink", STRING, "uid", UID, "resourceVersion", STRING, "generation", INT64,
            "creationTimestamp", TIME, "deletionTimestamp", TIME, "deletionGracePeriodSeconds", pointer(INT64),
            "labels", map("map[string]string", STRING), "annotations", map("map[string]string", STRING),
            "ownerReferences", slice(OWNER_REFERENCE), "finalizers", slice(STRING),
            "managedFields", slice(MANAGED_FIELDS_ENTRY));
    private static final Type DEVICE_ATTRIBUTE = struct("v1.DeviceAttribute", "int", pointer(INT64),
            "bool", pointer(BOOL), "string", pointer(STRING), "version", pointer(STRING), "ints", slice(INT64),
            "bools", slice(BOOL), "strings", slice(STRING),
            "versions", slice(STRING));
    private static final Type ATTRIBUTES = map("map[v1.QualifiedName]v1.DeviceAttribute", DEVICE_ATTRIBUTE);
    private static final Type NETWORK_DEVICE_DATA = struct("v1.NetworkDeviceData", "interfaceName", STRING,
            "ips", slice(STRING), "hardwareAddress", STRING);
    private static final Type DEVICE = struct("%s.Device", "driver", STRING, "pool", STRING, "name", STRING,
            "attributes", ATTRIBUTES, "networkData", pointer(NETWORK_DEVICE_DATA));
    private static final Type REQUEST = struct("%s.DeviceMetadataRequest", "name", STRING, "devices", slice(DEVICE));
    private static final Type DEVICE_METADATA = struct("%s.DeviceMetadata", TYPE_META,
            "metadata", OBJECT_META, "podClaimName", pointer(STRING), "requests", slice(REQUEST));

    /**
     * The internal {@code metadata.DeviceMetadata}: no JSON tags, so its members are the Go field names (matched
     * case-sensitively), with {@code TypeMeta} and {@code ObjectMeta} embedded (their fields at the top level).
     */
    public static final Type INTERNAL = struct("metadata.DeviceMetadata", TYPE_META, OBJECT_META,
            "PodClaimName", pointer(STRING), "Requests", slice(struct("metadata.DeviceMetadataRequest", "Name", STRING,
                    "Devices", slice(struct("metadata.Device", "Driver", STRING, "Pool", STRING, "Name", STRING,
                            "Attributes", ATTRIBUTES, "NetworkData", pointer(NETWORK_DEVICE_DATA))))));

    /** The type of the whole object. */
    public static final Type ROOT = DEVICE_METADATA;

    private static final int MAX_LITERAL = 64;

    private GoTypes() {}

    /**
     * Go's {@code UnmarshalTypeError} text for a binding failure of a {@code DeviceMetadata} object, or
     * {@code null} when the failure is not a type error Go would report (the caller words it itself).
     *
     * @param parser the parser, still positioned on the value that failed
     * @param version the object's version package ({@code v1alpha1} or {@code v1beta1})
     */
    public static String typeError(JsonMappingException e, JsonParser parser, String version) {
        Type type = DEVICE_METADATA;
        String struct = null;
        List<String> fields = new ArrayList<>();
        for (JsonMappingException.Reference ref : e.getPath()) {
            String name = ref.getFieldName();
            if (type.kind() == Kind.STRUCT && name != null && type.fields().containsKey(name)) {
                struct = type.structName();
                fields.add(name);
                type = type.fields().get(name);
            } else if (type.kind() == Kind.SLICE && name == null && ref.getIndex() >= 0) {
                type = type.elem();
            } else if (type.kind() == Kind.MAP && name != null) {
                type = type.elem();
            } else {
                return null;
            }
        }
        String value = describeValue(parser, type.kind() == Kind.INT64);
        if (struct == null || value == null) {
            return null;
        }
        return "json: cannot unmarshal " + value + " into Go struct field " + struct.formatted(version) + "."
                + String.join(".", fields) + " of type " + type.name().formatted(version);
    }

    /**
     * Go's error for decoding the object between {@code start} and {@code end} into {@code root}, or
     * {@code null} if it decodes.
     *
     * <p>Go saves the first type error and decodes on, skipping the value that failed (every value, also each of
     * a repeated key, in document order); a timestamp's own decoder, though, stops it at once, and that error is
     * the one reported.
     *
     * @param version the object's version package, for the type names ({@code v1alpha1} or {@code v1beta1})
     */
    public static String firstError(char[] text, int start, int end, Type root, String version) throws IOException {
        try (JsonParser p = GoCompatibleJson.mapper().createParser(text, start, end - start)) {
            p.nextToken();
            Walk walk = new Walk(version);
            String immediate = walk.value(p, root, null, new ArrayList<>());
            return immediate != null ? immediate : walk.saved;
        }
    }

    private static final class Walk {
        private final String version;
        private String saved;

        Walk(String version) {
            this.version = version;
        }

        /** Visits the value at the parser as Go decodes it into {@code type}; leaves the parser at its end. */
        private String value(JsonParser p, Type type, String struct, List<String> fields) throws IOException {
            JsonToken token = p.currentToken();
            if (token == JsonToken.VALUE_NULL || type.kind() == Kind.ANY) {
                p.skipChildren();
                return null;
            }
            if (type == TIME) {
                if (token == JsonToken.VALUE_STRING) {
                    try {
                        KubernetesTime.normalize(p.getText());
                        return null;
                    } catch (KubernetesTime.InvalidTime e) {
                        return e.getMessage();
                    }
                }
                String error = mismatch(p, type, struct, fields);
                p.skipChildren();
                return error;
            }
            if (type.kind() == Kind.STRUCT && token == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    Type field = type.fields().get(p.currentName());
                    p.nextToken();
                    if (field == null) {
                        p.skipChildren(); // unknown fields are ignored
                        continue;
                    }
                    fields.add(type.path(p.currentName()));
                    String error = value(p, field, type.structName(), fields);
                    fields.remove(fields.size() - 1);
                    if (error != null) {
                        return error;
                    }
                }
                return null;
            }
            if ((type.kind() == Kind.MAP && token == JsonToken.START_OBJECT)
                    || (type.kind() == Kind.SLICE && token == JsonToken.START_ARRAY)) {
                JsonToken close = token == JsonToken.START_OBJECT ? JsonToken.END_OBJECT : JsonToken.END_ARRAY;
                while (p.nextToken() != close) {
                    if (p.currentToken() == JsonToken.FIELD_NAME) {
                        p.nextToken();
                    }
                    String error = value(p, type.elem(), struct, fields);
                    if (error != null) {
                        return error;
                    }
                }
                return null;
            }
            if (!accepts(type.kind(), p)) {
                String error = mismatch(p, type, struct, fields);
                if (saved == null) {
                    saved = error;
                }
            }
            p.skipChildren();
            return null;
        }

        private String mismatch(JsonParser p, Type type, String struct, List<String> fields) {
            boolean integer = type.kind() == Kind.INT32 || type.kind() == Kind.INT64;
            return "json: cannot unmarshal " + describeValue(p, integer) + " into Go struct field "
                    + struct.formatted(version) + "." + String.join(".", fields) + " of type "
                    + type.name().formatted(version);
        }
    }

    /** Whether Go's decoder stores the scalar at the parser in a value of this kind. */
    private static boolean accepts(Kind kind, JsonParser p) throws IOException {
        JsonToken token = p.currentToken();
        return switch (kind) {
            case STRING -> token == JsonToken.VALUE_STRING;
            case BOOL -> token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE;
            case INT32, INT64 -> token == JsonToken.VALUE_NUMBER_INT && fits(p.getText(), kind == Kind.INT32 ? 32 : 64);
            default -> false;
        };
    }

    /** Go's {@code strconv.ParseInt(literal, 10, bits)} succeeds. */
    private static boolean fits(String literal, int bits) {
        if (literal.length() > 20) {
            return false;
        }
        try {
            long n = Long.parseLong(literal);
            return bits == 64 || (n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Go's description of the JSON value at the parser: {@code string}, {@code number}, {@code bool}, ... */
    private static String describeValue(JsonParser parser, boolean intTarget) {
        JsonToken token = parser.currentToken();
        if (token == null) {
            return null;
        }
        return switch (token) {
            case VALUE_STRING -> "string";
            case VALUE_TRUE, VALUE_FALSE -> "bool";
            case START_ARRAY -> "array";
            case START_OBJECT -> "object";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> intTarget ? "number " + text(parser) : "number";
            default -> null;
        };
    }

    private static String text(JsonParser parser) {
        try {
            String literal = parser.getText();
            return literal.length() <= MAX_LITERAL ? literal : literal.substring(0, MAX_LITERAL) + "...";
        } catch (IOException e) {
            return "";
        }
    }
}
