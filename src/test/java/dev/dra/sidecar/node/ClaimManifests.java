package dev.dra.sidecar.node;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The ResourceClaim, ResourceClaimTemplate and DeviceClass manifests the real-node tests create, as YAML for
 * {@link KubeNodeExtension#load}. A request asks for devices of the DeviceClass {@value #DEVICE_CLASS}, which
 * start.sh creates for the upstream test driver's devices, unless it names another class ({@link #ATTRIBUTES_CLASS},
 * {@link #MIXED_CLASS}: the attribute drivers'). Several manifests are joined into one YAML stream by
 * {@link #all}. {@code claim("gpu-claim", "gpu")}, for one, is:
 *
 * <pre>
 * apiVersion: resource.k8s.io/v1
 * kind: ResourceClaim
 * metadata: {name: gpu-claim}
 * spec:
 *   devices:
 *     requests:
 *       - {name: gpu, exactly: {deviceClassName: gpu.example.com}}
 * </pre>
 */
final class ClaimManifests {

    /** The DeviceClass of the test driver's devices, made by the node's start.sh. */
    static final String DEVICE_CLASS = "gpu.example.com";
    /** The DeviceClass of the devices of {@value KubeNode#ATTRIBUTE_DRIVER} (no metadata files) but gpu-7. */
    static final String ATTRIBUTES_CLASS = "attributes.example.com";
    /**
     * The DeviceClass of one device of each attribute driver: gpu-7 of {@value KubeNode#ATTRIBUTE_DRIVER} (no files)
     * and nic-0 of {@value KubeNode#ATTRIBUTE_FILE_DRIVER} (files); a request for two gets both.
     */
    static final String MIXED_CLASS = "mixed.example.com";
    /** The extended resource that {@link #EXTENDED_ATTRIBUTES_CLASS} lets a container ask for without a claim. */
    static final String EXTENDED_ATTRIBUTES_RESOURCE = "attributes.example.com/gpu";
    /**
     * The DeviceClass {@code extended-attributes.example.com}: the devices of {@link #ATTRIBUTES_CLASS} for containers
     * that ask for {@value #EXTENDED_ATTRIBUTES_RESOURCE} in their limits. Cluster-scoped.
     */
    static final String EXTENDED_ATTRIBUTES_CLASS = extendedClass("extended-attributes.example.com",
            EXTENDED_ATTRIBUTES_RESOURCE, "device.driver == \"" + KubeNode.ATTRIBUTE_DRIVER
                    + "\" && !(\"mixed\" in device.attributes[\"example.com\"])");
    /** The extended resource that {@link #EXTENDED_CLASS} lets a container ask for without a claim. */
    static final String EXTENDED_RESOURCE = "example.com/gpu";

    /** The ResourceClaim {@code gpu-claim} with its one request {@code gpu}: the claim most node tests' pods name. */
    static final String GPU_CLAIM = claim("gpu-claim", "gpu");
    /** {@link #GPU_CLAIM} and the ResourceClaimTemplate {@code gpu-template} with its one request {@code gpu}. */
    static final String GPU_CLAIM_AND_TEMPLATE = all(GPU_CLAIM, template("gpu-template", "gpu"));

    /**
     * The DeviceClass {@code extended-gpu.example.com}: selects the test driver's devices for containers that ask for
     * {@value #EXTENDED_RESOURCE} in their limits (no claim in the pod's spec). Cluster-scoped.
     */
    static final String EXTENDED_CLASS = extendedClass("extended-gpu.example.com", EXTENDED_RESOURCE,
            "device.driver == \"" + KubeNode.TEST_DRIVER + "\"");

    /** The DeviceClass {@code name} of the devices {@code selector} selects, for the extended resource {@code resource}. */
    private static String extendedClass(String name, String resource, String selector) {
        return """
                apiVersion: resource.k8s.io/v1
                kind: DeviceClass
                metadata: {name: %s}
                spec:
                  extendedResourceName: %s
                  selectors:
                    - cel: {expression: '%s'}
                """.formatted(name, resource, selector);
    }

    private ClaimManifests() {}

    /** The ResourceClaim {@code name} with one request per name of {@code requests}, each for one device. */
    static String claim(String name, String... requests) {
        return object("ResourceClaim", name, devices(Arrays.stream(requests).map(r -> request(r, ""))
                .collect(Collectors.joining())));
    }

    /** The ResourceClaim {@code name} with the one request {@code request}, for exactly {@code count} devices. */
    static String claim(String name, String request, int count) {
        return claim(name, request, DEVICE_CLASS, count);
    }

    /** The ResourceClaim {@code name} with the one request {@code request} for {@code count} devices of {@code deviceClass}. */
    static String claim(String name, String request, String deviceClass, int count) {
        return object("ResourceClaim", name, devices(request(request, deviceClass,
                ", allocationMode: ExactCount, count: " + count)));
    }

    /** The ResourceClaimTemplate {@code name} whose claims have the one request {@code request}, for one device. */
    static String template(String name, String request) {
        return template(name, request, DEVICE_CLASS);
    }

    /** The ResourceClaimTemplate {@code name} whose claims ask {@code request} for one device of {@code deviceClass}. */
    static String template(String name, String request, String deviceClass) {
        return object("ResourceClaimTemplate", name, "spec:\n" + devices(request(request, deviceClass, "")).indent(2));
    }

    /** {@code manifests} as one YAML stream, in their order. */
    static String all(String... manifests) {
        return String.join("---\n", manifests);
    }

    /** A {@code resource.k8s.io/v1} object of {@code kind} named {@code name}, with {@code spec} as its spec. */
    private static String object(String kind, String name, String spec) {
        return "apiVersion: resource.k8s.io/v1\nkind: " + kind + "\nmetadata: {name: " + name + "}\nspec:\n"
                + spec.indent(2);
    }

    /** A claim spec's {@code devices} with {@code requests}, lines of {@link #request}. */
    private static String devices(String requests) {
        return "devices:\n  requests:\n" + requests.indent(4);
    }

    /** One line of a request list: {@code name} for devices of {@link #DEVICE_CLASS}, with {@code more} fields. */
    private static String request(String name, String more) {
        return request(name, DEVICE_CLASS, more);
    }

    /** One line of a request list: {@code name} for devices of {@code deviceClass}, with {@code more} fields. */
    private static String request(String name, String deviceClass, String more) {
        return "- {name: " + name + ", exactly: {deviceClassName: " + deviceClass + more + "}}\n";
    }
}
