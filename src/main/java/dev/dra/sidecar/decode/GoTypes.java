package dev.dra.sidecar.decode;

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
 * The Go types behind the JSON of a {@code DeviceMetadata} object, so that a value of the wrong JSON type is
 * reported in the words of Go's {@code encoding/json}:
 * {@code json: cannot unmarshal string into Go struct field DeviceMetadata.requests of type []v1beta1.DeviceMetadataRequest}.
 *
 * <p>As Go words it: the struct is the innermost struct whose field was entered, the field path joins the
 * JSON names of the struct fields from the root (list indices and map keys are not part of it), the type is
 * the Go type of the value that failed with pointers removed, and a number that does not fit an integer is
 * quoted ({@code number 2.5}; a literal longer than {@value #MAX_LITERAL} characters is cut there and marked
 * with {@code ...}, so that the field path stays in a short detail).
 */
final class GoTypes {

    enum Kind { SCALAR, STRUCT, SLICE, MAP }

    /**
     * @param name as Go's {@code reflect.Type.String} prints it; {@code %s} stands for the object's version
     *     package ({@code v1alpha1} or {@code v1beta1})
     * @param nullResets whether {@code null} sets the value to nil or zero (a pointer, slice, map or a type
     *     that unmarshals itself); otherwise {@code null} leaves the value as it was
     */
    record Type(String name, Kind kind, Type elem, Map<String, Type> fields, boolean nullResets) {
        String structName() {
            return name.substring(name.indexOf('.') + 1);
        }
    }

    private static Type scalar(String name) {
        return new Type(name, Kind.SCALAR, null, Map.of(), false);
    }

    private static Type pointer(Type type) {
        return new Type(type.name(), type.kind(), type.elem(), type.fields(), true);
    }

    private static Type slice(Type elem) {
        return new Type("[]" + elem.name(), Kind.SLICE, elem, Map.of(), true);
    }

    private static Type map(String name, Type elem) {
        return new Type(name, Kind.MAP, elem, Map.of(), true);
    }

    private static Type struct(String name, Object... fieldsAndTypes) {
        Map<String, Type> fields = new LinkedHashMap<>();
        for (int i = 0; i < fieldsAndTypes.length; i += 2) {
            fields.put((String) fieldsAndTypes[i], (Type) fieldsAndTypes[i + 1]);
        }
        return new Type(name, Kind.STRUCT, null, Map.copyOf(fields), false);
    }

    private static final Type STRING = scalar("string");
    private static final Type INT64 = scalar("int64");
    private static final Type BOOL = scalar("bool");
    private static final Type UID = scalar("types.UID");
    /**
     * {@code metav1.Time} unmarshals a JSON string itself: a type error names {@code string}, and any failure
     * stops Go's decoder at once (see {@link #timestampError}).
     */
    private static final Type TIME = pointer(scalar("string"));
    /** Takes any JSON value and keeps it as written. */
    static final Type FIELDS_V1 = pointer(scalar("v1.FieldsV1"));

    private static final Type OWNER_REFERENCE = struct("v1.OwnerReference", "apiVersion", STRING, "kind", STRING,
            "name", STRING, "uid", UID, "controller", pointer(BOOL), "blockOwnerDeletion", pointer(BOOL));
    private static final Type MANAGED_FIELDS_ENTRY = struct("v1.ManagedFieldsEntry", "manager", STRING,
            "operation", scalar("v1.ManagedFieldsOperationType"), "apiVersion", STRING, "time", TIME,
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
    private static final Type NETWORK_DEVICE_DATA = struct("v1.NetworkDeviceData", "interfaceName", STRING,
            "ips", slice(STRING), "hardwareAddress", STRING);
    private static final Type DEVICE = struct("%s.Device", "driver", STRING, "pool", STRING, "name", STRING,
            "attributes", map("map[v1.QualifiedName]v1.DeviceAttribute", DEVICE_ATTRIBUTE),
            "networkData", pointer(NETWORK_DEVICE_DATA));
    private static final Type REQUEST = struct("%s.DeviceMetadataRequest", "name", STRING, "devices", slice(DEVICE));
    private static final Type DEVICE_METADATA = struct("%s.DeviceMetadata", "kind", STRING, "apiVersion", STRING,
            "metadata", OBJECT_META, "podClaimName", pointer(STRING), "requests", slice(REQUEST));

    /** The type of the whole object. */
    static final Type ROOT = DEVICE_METADATA;

    private static final int MAX_LITERAL = 64;

    private GoTypes() {}

    /**
     * Go's {@code UnmarshalTypeError} text for a binding failure of a {@code DeviceMetadata} object, or
     * {@code null} when the failure is not a type error Go would report (the caller words it itself).
     *
     * @param parser the parser, still positioned on the value that failed
     * @param version the object's version package ({@code v1alpha1} or {@code v1beta1})
     */
    static String typeError(JsonMappingException e, JsonParser parser, String version) {
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
        String value = describeValue(parser, type.name().equals("int64"));
        if (struct == null || value == null) {
            return null;
        }
        return "json: cannot unmarshal " + value + " into Go struct field " + struct.formatted(version) + "."
                + String.join(".", fields) + " of type " + type.name().formatted(version);
    }

    /**
     * The error of the first timestamp Go's decoder reaches in the object between {@code start} and
     * {@code end}, or {@code null} if every timestamp it reaches is good.
     *
     * <p>Go saves a type error and decodes on, skipping the value that failed; a timestamp's own decoder,
     * though, stops it at once, and that error is the one reported. So when binding failed on a type error,
     * a malformed timestamp later in the object is what Go reports instead.
     */
    static String timestampError(char[] text, int start, int end, String version) throws IOException {
        try (JsonParser p = GoCompatibleJson.mapper().createParser(text, start, end - start)) {
            p.nextToken();
            return walk(p, DEVICE_METADATA, null, new ArrayList<>(), version);
        }
    }

    /** Visits the value at the parser as Go would decode it into {@code type}; leaves the parser at its end. */
    private static String walk(JsonParser p, Type type, String struct, List<String> fields, String version)
            throws IOException {
        JsonToken token = p.currentToken();
        if (type == TIME) {
            if (token == JsonToken.VALUE_STRING) {
                try {
                    KubernetesTime.normalize(p.getText());
                    return null;
                } catch (KubernetesTime.InvalidTime e) {
                    return e.getMessage();
                }
            }
            String value = describeValue(p, false);
            p.skipChildren();
            return value == null ? null : "json: cannot unmarshal " + value + " into Go struct field "
                    + struct + "." + String.join(".", fields) + " of type string";
        }
        if (type.kind() == Kind.STRUCT && token == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                Type field = type.fields().get(p.currentName());
                p.nextToken();
                if (field == null) {
                    p.skipChildren();
                    continue;
                }
                fields.add(p.currentName());
                String error = walk(p, field, type.structName(), fields, version);
                fields.remove(fields.size() - 1);
                if (error != null) {
                    return error;
                }
            }
            return null;
        }
        if (type.kind() == Kind.MAP && token == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                p.nextToken();
                String error = walk(p, type.elem(), struct, fields, version);
                if (error != null) {
                    return error;
                }
            }
            return null;
        }
        if (type.kind() == Kind.SLICE && token == JsonToken.START_ARRAY) {
            while (p.nextToken() != JsonToken.END_ARRAY) {
                String error = walk(p, type.elem(), struct, fields, version);
                if (error != null) {
                    return error;
                }
            }
            return null;
        }
        p.skipChildren(); // a scalar, or a value of the wrong type: Go skips it
        return null;
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
