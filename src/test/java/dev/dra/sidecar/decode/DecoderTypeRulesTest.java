package dev.dra.sidecar.decode;

import static dev.dra.sidecar.decode.FailureCode.INVALID_OBJECT;
import static dev.dra.sidecar.decode.FailureCode.MALFORMED_STREAM;
import static dev.dra.sidecar.decode.GoReaderCases.*;
import static dev.dra.sidecar.decode.TestStreams.ALPHA;
import static dev.dra.sidecar.decode.TestStreams.BETA;
import static dev.dra.sidecar.decode.TestStreams.UNKNOWN;
import static dev.dra.sidecar.decode.TestStreams.V1ALPHA1;
import static dev.dra.sidecar.decode.TestStreams.V1BETA1;
import static dev.dra.sidecar.decode.TestStreams.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.dra.sidecar.decode.GoReaderCases.Case;
import dev.dra.sidecar.model.Device;
import dev.dra.sidecar.model.DeviceAttribute;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.model.DeviceMetadataRequest;
import dev.dra.sidecar.model.ManagedFieldsEntry;
import dev.dra.sidecar.model.NetworkDeviceData;
import dev.dra.sidecar.model.ObjectMeta;
import dev.dra.sidecar.model.OwnerReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * How Go's reader binds JSON values to the model's types, where a naive JSON reader disagrees: field names bind
 * case-sensitively, JSON types never coerce, numbers must fit their Go type, and {@code null} leaves Go's zero value
 * in a list item or map value and nil in a pointer, slice or map. Named cases of the {@link GoReaderCases} table,
 * grouped by the Go rule they pin down.
 */
class DecoderTypeRulesTest {

    @TestFactory
    Stream<DynamicNode> goReaderRules() {
        return GoReaderCases.tests(group("numbers", numbers()), group("JSON types", types()),
                group("null as Go reads it", nulls()));
    }

    static List<Case> numbers() {
        List<Case> cases = new ArrayList<>();
        for (long value : List.of(9007199254740993L, Long.MAX_VALUE, Long.MIN_VALUE, -9007199254740993L, 0L)) {
            cases.add(decodes("an int64 stays exact: " + value, withGeneration(Long.toString(value)),
                    d -> assertEquals(value, d.object().metadata().generation())));
            cases.add(decodes("an int attribute stays exact: " + value, withAttribute("{\"int\":" + value + "}"),
                    d -> assertEquals(value, attribute(d).intValue())));
            cases.add(decodes("an ints item stays exact: " + value, withAttribute("{\"ints\":[" + value + ",1]}"),
                    d -> assertEquals(List.of(value, 1L), attribute(d).ints())));
        }
        cases.add(decodes("negative zero is zero", withGeneration("-0"), d -> assertEquals(0L, d.object().metadata().generation())));
        for (String value : List.of("9223372036854775808", "-9223372036854775809", "18446744073709551616",
                "1234567890123456789012345678901234567890")) {
            cases.add(fails("outside int64 is an invalid object: " + value, withGeneration(value), INVALID_OBJECT,
                    "test.json: decode " + V1ALPHA1 + ": json: cannot unmarshal number " + value
                            + " into Go struct field ObjectMeta.metadata.generation of type int64"));
            cases.add(fails("an int attribute outside int64: " + value, withAttribute("{\"int\":" + value + "}"),
                    INVALID_OBJECT, "json: cannot unmarshal number " + value
                            + " into Go struct field DeviceAttribute.requests.devices.attributes.int of type int64"));
        }
        // Go parses an int64 field with strconv.ParseInt on the literal: 2.0 and 1e3 are refused
        for (String value : List.of("2.5", "2.0", "1e3", "1E3", "1e-0", "-0.0", "0.1e1")) {
            cases.add(fails("a fraction or exponent is not an int64: " + value, withGeneration(value), INVALID_OBJECT,
                    "json: cannot unmarshal number " + value + " into Go struct field ObjectMeta.metadata.generation of type int64"));
            cases.add(fails("a fraction or exponent is not an int: " + value, withAttribute("{\"int\":" + value + "}"),
                    INVALID_OBJECT, "Go struct field DeviceAttribute.requests.devices.attributes.int of type int64"));
            cases.add(fails("a fraction or exponent is not an ints item: " + value, withAttribute("{\"ints\":[1," + value + "]}"),
                    INVALID_OBJECT, "json: cannot unmarshal number " + value
                            + " into Go struct field DeviceAttribute.requests.devices.attributes.ints of type int64"));
        }
        for (String value : List.of("\"1\"", "true", "[1]", "{}", "\"\"")) {
            cases.add(fails("a generation that is not a number: " + value, withGeneration(value), INVALID_OBJECT,
                    "decode " + V1ALPHA1 + ": json: cannot unmarshal " + goValue(value)
                            + " into Go struct field ObjectMeta.metadata.generation of type int64"));
        }
        String digits = "9".repeat(100_000);
        cases.add(decodes("numbers of any length in unknown fields are skipped",
                ALPHA + ",\"x\":" + digits + ",\"y\":-0." + digits + "e-" + digits + "}", d -> assertEquals(V1ALPHA1, d.sourceVersion())));
        cases.add(decodes("numbers of any length in unknown objects are skipped",
                "{\"kind\":\"K\",\"apiVersion\":\"a/b\",\"n\":[" + digits + "]}" + ALPHA + "}", d -> assertEquals(V1ALPHA1, d.sourceVersion())));
        cases.add(fails("a 100,000-digit generation is out of range, and the detail stays short", withGeneration(digits),
                INVALID_OBJECT, "json: cannot unmarshal number 999"));
        String mebibyte = "1".repeat((1 << 20) - 200);
        // a bound against a quadratic parse (tens of seconds for a megabyte), not a speed target
        cases.add(new Case("a number of a megabyte is scanned, not parsed", bytes(withGeneration(mebibyte)),
                s -> assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                    TestStreams.assertFails(s, INVALID_OBJECT, "metadata.generation");
                    assertEquals(V1ALPHA1, decode(bytes(ALPHA + ",\"unknownField\":" + mebibyte + "}")).sourceVersion());
                    TestStreams.assertFails(withGeneration("0." + mebibyte), INVALID_OBJECT, "metadata.generation");
                })));
        return cases;
    }

    static List<Case> types() {
        List<Case> cases = new ArrayList<>(List.of(
                fails("a number where a string is expected, in Go's words",
                        ALPHA + ",\"requests\":[{\"name\":\"r\",\"devices\":[{\"pool\":5}]}]}", INVALID_OBJECT,
                        "test.json: decode " + V1ALPHA1 + ": json: cannot unmarshal number into Go struct field "
                                + "Device.requests.devices.pool of type string"),
                fails("a string where a list is expected names the slice type", ALPHA + ",\"requests\":\"x\"}", INVALID_OBJECT,
                        "decode " + V1ALPHA1 + ": json: cannot unmarshal string into Go struct field "
                                + "DeviceMetadata.requests of type []v1alpha1.DeviceMetadataRequest"),
                fails("the version package follows the object's version", BETA + ",\"requests\":[5]}", INVALID_OBJECT,
                        "decode " + V1BETA1 + ": json: cannot unmarshal number into Go struct field "
                                + "DeviceMetadata.requests of type v1beta1.DeviceMetadataRequest"),
                fails("a pointer field names the type it points to", withAttribute("{\"string\":[\"x\"]}"), INVALID_OBJECT,
                        "json: cannot unmarshal array into Go struct field DeviceAttribute.requests.devices.attributes.string "
                                + "of type string"),
                fails("a string where a list of ints is expected", withAttribute("{\"ints\":\"1\"}"), INVALID_OBJECT,
                        "json: cannot unmarshal string into Go struct field DeviceAttribute.requests.devices.attributes.ints "
                                + "of type []int64"),
                fails("a string where a list of strings is expected", withAttribute("{\"strings\":\"x\"}"), INVALID_OBJECT,
                        "of type []string"),
                fails("a number where a version is expected", withAttribute("{\"version\":1.0}"), INVALID_OBJECT,
                        "json: cannot unmarshal number into Go struct field DeviceAttribute.requests.devices.attributes.version "
                                + "of type string"),
                fails("a map of the wrong type", ALPHA + ",\"metadata\":{\"labels\":{\"a\":1}}}", INVALID_OBJECT,
                        "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string"),
                fails("attributes that are not an object", ALPHA + ",\"requests\":[{\"devices\":[{\"attributes\":[]}]}]}",
                        INVALID_OBJECT, "json: cannot unmarshal array into Go struct field Device.requests.devices.attributes "
                                + "of type map[v1.QualifiedName]v1.DeviceAttribute"),
                fails("networkData that is not an object", ALPHA + ",\"requests\":[{\"devices\":[{\"networkData\":\"x\"}]}]}",
                        INVALID_OBJECT, "json: cannot unmarshal string into Go struct field Device.requests.devices.networkData "
                                + "of type v1.NetworkDeviceData"),
                fails("an owner reference flag that is not a bool",
                        ALPHA + ",\"metadata\":{\"ownerReferences\":[{\"controller\":\"yes\"}]}}", INVALID_OBJECT,
                        "json: cannot unmarshal string into Go struct field OwnerReference.metadata.ownerReferences.controller "
                                + "of type bool"),
                fails("a uid that is not a string", ALPHA + ",\"metadata\":{\"uid\":1}}", INVALID_OBJECT,
                        "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type types.UID"),
                decodes("unknown fields are ignored at every level", ALPHA
                        + ",\"extra\":{\"x\":[1,2,{\"y\":null}]},\"metadata\":{\"name\":\"c\",\"x\":1},"
                        + "\"requests\":[{\"name\":\"r\",\"x\":true,\"devices\":[{\"driver\":\"d\",\"pool\":\"p\",\"name\":\"n\","
                        + "\"capacity\":{\"memory\":\"1Gi\"},\"attributes\":{\"a\":{\"float\":1.5,\"string\":\"s\"}},"
                        + "\"networkData\":{\"addresses\":[\"x\"],\"ips\":[\"10.0.0.1/24\"]}}]}]}", d -> {
                            assertEquals("c", d.object().metadata().name());
                            assertEquals("s", attribute(d).stringValue());
                            assertEquals(List.of("string"), attribute(d).setMembers());
                            assertEquals(List.of("10.0.0.1/24"), device(d).networkData().ips());
                        }),
                decodes("deep nesting inside an unknown field decodes", ALPHA + ",\"x\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}",
                        d -> assertEquals(V1ALPHA1, d.sourceVersion())),
                decodes("deep nesting inside an unknown object is skipped",
                        UNKNOWN.replace("}", ",\"x\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}") + ALPHA + "}",
                        d -> assertEquals(V1ALPHA1, d.sourceVersion())),
                // Go's scanner allows 10,000 levels, counting the object itself
                decodes("9,999 levels inside an object are allowed", ALPHA + ",\"x\":" + "[".repeat(9_999) + "]".repeat(9_999) + "}",
                        d -> assertEquals(V1ALPHA1, d.sourceVersion())),
                fails("10,000 levels inside an object are too deep", ALPHA + ",\"x\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}",
                        MALFORMED_STREAM, "read metadata object from stream"),
                fails("too deep inside an unknown object",
                        UNKNOWN.replace("}", ",\"x\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}") + ALPHA + "}",
                        MALFORMED_STREAM, "read metadata object from stream"),
                fails("10,001 levels at the root are too deep", "[".repeat(10_001) + "]".repeat(10_001), MALFORMED_STREAM,
                        "read metadata object from stream"),
                fails("10,000 levels at the root are a complete array", "[".repeat(10_000) + "]".repeat(10_000),
                        INVALID_OBJECT, "json: cannot unmarshal array into Go value of type struct")));
        for (String value : List.of("0", "1", "\"true\"", "\"false\"", "\"\"", "[true]", "{}")) {
            cases.add(fails("bool only from a JSON boolean: " + value, withAttribute("{\"bool\":" + value + "}"), INVALID_OBJECT,
                    "json: cannot unmarshal " + goValue(value) + " into Go struct field "
                            + "DeviceAttribute.requests.devices.attributes.bool of type bool"));
            cases.add(fails("bools items only from JSON booleans: " + value, withAttribute("{\"bools\":[" + value + "]}"),
                    INVALID_OBJECT, "json: cannot unmarshal " + goValue(value) + " into Go struct field "
                            + "DeviceAttribute.requests.devices.attributes.bools of type bool"));
        }
        for (String value : List.of("\"x\"", "{}", "5", "true")) {
            cases.add(fails("requests of the wrong JSON type: " + value, ALPHA + ",\"requests\":" + value + "}",
                    INVALID_OBJECT, "json: cannot unmarshal " + goValue(value)
                            + " into Go struct field DeviceMetadata.requests of type []v1alpha1.DeviceMetadataRequest"));
            cases.add(fails("devices of the wrong JSON type: " + value,
                    ALPHA + ",\"requests\":[{\"name\":\"r\",\"devices\":" + value + "}]}", INVALID_OBJECT,
                    "json: cannot unmarshal " + goValue(value)
                            + " into Go struct field DeviceMetadataRequest.requests.devices of type []v1alpha1.Device"));
        }
        for (String value : List.of("[]", "\"\"", "5", "[{}]")) {
            cases.add(fails("metadata must be an object: " + value, ALPHA + ",\"metadata\":" + value + "}", INVALID_OBJECT,
                    "json: cannot unmarshal " + goValue(value) + " into Go struct field DeviceMetadata.metadata of type v1.ObjectMeta"));
        }
        return cases;
    }

    /** Go's encoding/json: null into a list item or map value leaves the zero value; elsewhere nil or nothing. */
    static List<Case> nulls() {
        DeviceAttribute empty = new DeviceAttribute(null, null, null, null, null, null, null, null);
        return List.of(
                decodes("a null ints item is 0", withAttribute("{\"ints\":[1,null]}"),
                        d -> assertEquals(List.of(1L, 0L), attribute(d).ints())),
                decodes("a null bools item is false", withAttribute("{\"bools\":[null,true]}"),
                        d -> assertEquals(List.of(false, true), attribute(d).bools())),
                decodes("a null strings item is the empty string", withAttribute("{\"strings\":[null]}"),
                        d -> assertEquals(List.of(""), attribute(d).strings())),
                decodes("a null versions item is the empty string", withAttribute("{\"versions\":[\"1.0.0\",null]}"),
                        d -> assertEquals(List.of("1.0.0", ""), attribute(d).versions())),
                decodes("a null attribute value is the empty attribute", withAttribute("null"),
                        d -> assertEquals(empty, attribute(d))),
                decodes("the empty attribute is served as {}", withAttribute("null"),
                        d -> assertEquals("{\"a\":{}}", encode(device(d).attributes()))),
                decodes("a null ips item is the empty string",
                        ALPHA + ",\"requests\":[{\"devices\":[{\"networkData\":{\"ips\":[null,\"10.0.0.1/24\"]}}]}]}",
                        d -> assertEquals(List.of("", "10.0.0.1/24"), device(d).networkData().ips())),
                decodes("a null request is the empty request", ALPHA + ",\"requests\":[null,{\"name\":\"r\"}]}",
                        d -> assertEquals(List.of(new DeviceMetadataRequest(null, null), new DeviceMetadataRequest("r", null)),
                                d.object().requests())),
                decodes("a null device is the empty device", ALPHA + ",\"requests\":[{\"name\":\"r\",\"devices\":[null]}]}",
                        d -> assertEquals(List.of(new Device(null, null, null, null, null)), d.object().requests().get(0).devices())),
                decodes("the empty device is served as {}", ALPHA + ",\"requests\":[{\"name\":\"r\",\"devices\":[null]}]}",
                        d -> assertEquals("[{}]", encode(d.object().requests().get(0).devices()))),
                decodes("a null label value is the empty string", ALPHA + ",\"metadata\":{\"labels\":{\"a\":null}}}",
                        d -> assertEquals(Map.of("a", ""), d.object().metadata().labels())),
                decodes("a null annotation value is the empty string", ALPHA + ",\"metadata\":{\"annotations\":{\"a\":null}}}",
                        d -> assertEquals(Map.of("a", ""), d.object().metadata().annotations())),
                decodes("a null finalizer is the empty string", ALPHA + ",\"metadata\":{\"finalizers\":[null]}}",
                        d -> assertEquals(List.of(""), d.object().metadata().finalizers())),
                decodes("a null owner reference is the empty owner reference",
                        ALPHA + ",\"metadata\":{\"ownerReferences\":[null]}}",
                        d -> assertEquals(List.of(new OwnerReference(null, null, null, null, null, null)),
                                d.object().metadata().ownerReferences())),
                decodes("a null managed fields entry is the empty entry", ALPHA + ",\"metadata\":{\"managedFields\":[null]}}",
                        d -> assertEquals(List.of(new ManagedFieldsEntry(null, null, null, null, null, null, null)),
                                d.object().metadata().managedFields())),
                decodes("null into a pointer leaves it nil: podClaimName", ALPHA + ",\"podClaimName\":null}",
                        d -> assertNull(d.object().podClaimName())),
                decodes("null into a pointer leaves it nil: int, networkData", ALPHA
                        + ",\"requests\":[{\"devices\":[{\"networkData\":null,\"attributes\":{\"a\":{\"int\":null,\"string\":\"s\"}}}]}]}",
                        d -> {
                            assertNull(device(d).networkData());
                            assertNull(attribute(d).intValue());
                        }),
                decodes("null into a slice leaves it nil: requests", ALPHA
                        + ",\"requests\":null}", d -> assertNull(d.object().requests())),
                decodes("null into a slice leaves it nil: devices and ints",
                        ALPHA + ",\"requests\":[{\"name\":\"r\",\"devices\":[{\"attributes\":{\"a\":{\"ints\":null}}}]},"
                                + "{\"name\":\"s\",\"devices\":null}]}", d -> {
                            assertNull(attribute(d).ints());
                            assertNull(d.object().requests().get(1).devices());
                        }),
                decodes("null into a map leaves it nil: attributes, labels",
                        ALPHA + ",\"metadata\":{\"labels\":null},\"requests\":[{\"devices\":[{\"attributes\":null}]}]}", d -> {
                            assertNull(d.object().metadata().labels());
                            assertNull(device(d).attributes());
                        }),
                decodes("null into a non-pointer scalar leaves its zero value, absent when served: generation",
                        withGeneration("null"), d -> assertNull(d.object().metadata().generation())),
                decodes("null into a non-pointer struct leaves its zero value: metadata", ALPHA + ",\"metadata\":null}",
                        d -> assertNull(d.object().metadata())),
                decodes("null into a timestamp is the zero time, absent when served",
                        ALPHA + ",\"metadata\":{\"creationTimestamp\":null,\"deletionTimestamp\":null}}", d -> {
                            assertNull(d.object().metadata().creationTimestamp());
                            assertNull(d.object().metadata().deletionTimestamp());
                        }),
                decodes("null fieldsV1 leaves the pointer nil", ALPHA + ",\"metadata\":{\"managedFields\":[{\"fieldsV1\":null}]}}",
                        d -> assertNull(d.object().metadata().managedFields().get(0).fieldsV1())));
    }
}
