package dev.dra.sidecar.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * One DeviceMetadata object with one request and one device, as a driver writes it: a single line of JSON ending in
 * a newline. Start from {@link #forClaim} (v1beta1, namespace {@code default}, uid {@code uid-<claim>}, generation 1,
 * request {@code gpu}, driver {@code gpu.example.com}, pool {@code p}, device {@code gpu-0}, no attributes) and
 * change what the test is about. Values are inserted as given, without JSON escaping: pass plain names.
 */
public record DeviceMetadataJson(String apiVersion, String claim, long generation, String request, String driver,
        String pool, String device, String attributes) {

    public static final String V1BETA1 = "metadata.resource.k8s.io/v1beta1";
    public static final String V1ALPHA1 = "metadata.resource.k8s.io/v1alpha1";

    /** The defaults above for {@code claim}. */
    public static DeviceMetadataJson forClaim(String claim) {
        return new DeviceMetadataJson(V1BETA1, claim, 1, "gpu", "gpu.example.com", "p", "gpu-0", "");
    }

    public DeviceMetadataJson apiVersion(String value) {
        return new DeviceMetadataJson(value, claim, generation, request, driver, pool, device, attributes);
    }

    public DeviceMetadataJson generation(long value) {
        return new DeviceMetadataJson(apiVersion, claim, value, request, driver, pool, device, attributes);
    }

    public DeviceMetadataJson request(String value) {
        return new DeviceMetadataJson(apiVersion, claim, generation, value, driver, pool, device, attributes);
    }

    public DeviceMetadataJson driver(String value) {
        return new DeviceMetadataJson(apiVersion, claim, generation, request, value, pool, device, attributes);
    }

    public DeviceMetadataJson pool(String value) {
        return new DeviceMetadataJson(apiVersion, claim, generation, request, driver, value, device, attributes);
    }

    public DeviceMetadataJson device(String value) {
        return new DeviceMetadataJson(apiVersion, claim, generation, request, driver, pool, value, attributes);
    }

    /**
     * The members of the device's {@code attributes} object, as raw JSON without the braces, for example
     * {@code "model":{"string":"A"},"cores":{"int":8}}.
     */
    public DeviceMetadataJson attributes(String members) {
        return new DeviceMetadataJson(apiVersion, claim, generation, request, driver, pool, device, members);
    }

    /** The object as one line of JSON followed by a newline. */
    public String json() {
        return withDevices(deviceJson(device));
    }

    /**
     * {@link #json()} with {@code count} devices instead of one, named {@code <device>-0} to
     * {@code <device>-<count - 1>}, each with the attributes.
     */
    public String jsonWithDevices(int count) {
        return withDevices(IntStream.range(0, count).mapToObj(i -> deviceJson(device + "-" + i))
                .collect(Collectors.joining(",")));
    }

    private String deviceJson(String name) {
        return "{\"driver\":\"%s\",\"pool\":\"%s\",\"name\":\"%s\",\"attributes\":{%s}}".formatted(driver, pool,
                name, attributes);
    }

    private String withDevices(String devices) {
        return """
                {"kind":"DeviceMetadata","apiVersion":"%s",\
                "metadata":{"name":"%s","namespace":"default","uid":"uid-%s","generation":%d},\
                "requests":[{"name":"%s","devices":[%s]}]}
                """.formatted(apiVersion, claim, claim, generation, request, devices);
    }

    /** {@link #json()} with the object in {@code namespace} instead of {@code default}. */
    public String json(String namespace) {
        return json().replace("\"namespace\":\"default\"", "\"namespace\":\"" + namespace + "\"");
    }

    /** {@link #json()} in UTF-8. */
    public byte[] bytes() {
        return json().getBytes(StandardCharsets.UTF_8);
    }
}
