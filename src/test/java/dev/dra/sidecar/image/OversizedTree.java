package dev.dra.sidecar.image;

import static dev.dra.sidecar.testsupport.MetadataFiles.create;
import static dev.dra.sidecar.testsupport.MetadataFiles.file;

import dev.dra.sidecar.decode.MetadataDecodeException;
import dev.dra.sidecar.decode.MetadataStreamDecoder;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.store.file.HeldCharge;
import dev.dra.sidecar.testsupport.DeviceMetadataJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Metadata trees of claims of {@value #REQUESTS} requests, one file each. Small files hold one GPU with the five
 * attributes of the bench's kind, as v1beta1 then v1alpha1 (a driver serving both versions), about 1 KB. In a tree
 * {@link #withDenseFiles}, the first two requests of two claims in five are dense: 32 devices of 32 string attributes
 * each (the most upstream validation allows per device), as v1beta1 only, about 39 KB, far under {@code
 * dra.metadata.max-file-size}. A dense file takes several times the heap per byte of a small one: charged by its
 * size, as once, 400 of them ended the image in OutOfMemoryError.
 */
final class OversizedTree {

    static final int REQUESTS = 10;
    static final int DEVICES_OF_A_DENSE_FILE = 32;
    static final String DRIVER = "gpu.example.com";

    /** One file of the tree and the object it holds. */
    record TreeFile(Path path, DeviceMetadataJson object, int devices) {

        /** Where the API serves the file's request (merged, as upstream's reader: without the generation). */
        String apiPath() {
            return "/claims/" + object.claim() + "/" + object.request();
        }

        /** Where the API serves the file's own object, generation included. */
        String driverPath() {
            return apiPath() + "/drivers/" + object.driver();
        }

        boolean dense() {
            return devices > 1;
        }

        /** The file's bytes: a small file's object as v1beta1 then as v1alpha1, a dense one's as v1beta1. */
        byte[] content() {
            String older = dense() ? "" : json(object.apiVersion(DeviceMetadataJson.V1ALPHA1));
            return (json(object) + older).getBytes(StandardCharsets.UTF_8);
        }

        /** The object the sidecar serves for the file (the file's first version). */
        String served() {
            return json(object);
        }

        /** What holding the file is charged against the memory bound (docs/operations.md, "Memory bound"). */
        long charge() throws MetadataDecodeException {
            return HeldCharge.of(MetadataStreamDecoder.decode(content(), path.toString()).object());
        }

        /** The same file at another generation: the same size and charge. */
        TreeFile generation(long generation) {
            return new TreeFile(path, object.generation(generation), devices);
        }

        private String json(DeviceMetadataJson version) {
            return devices == 1 ? version.json() : version.jsonWithDevices(devices);
        }
    }

    private OversizedTree() {}

    /** Writes {@code claims} claims of small files under {@code root}; returns its files. */
    static List<TreeFile> write(Path root, int claims) {
        return write(root, claims, false);
    }

    /** Writes {@code claims} claims under {@code root}, two in five with two dense files; returns its files. */
    static List<TreeFile> withDenseFiles(Path root, int claims) {
        return write(root, claims, true);
    }

    private static List<TreeFile> write(Path root, int claims, boolean withDense) {
        List<TreeFile> files = new ArrayList<>();
        for (int c = 0; c < claims; c++) {
            String claim = String.format(Locale.ROOT, "c%04d", c);
            for (int r = 0; r < REQUESTS; r++) {
                boolean dense = withDense && r < 2 && c % 5 < 2;
                DeviceMetadataJson object = DeviceMetadataJson.forClaim(claim).request("r" + r).driver(DRIVER)
                        .attributes(dense ? denseAttributes() : gpuAttributes(c * REQUESTS + r));
                TreeFile tree = new TreeFile(file(root, ClaimKind.CLAIM, claim, "r" + r, DRIVER), object,
                        dense ? DEVICES_OF_A_DENSE_FILE : 1);
                create(tree.path(), tree.content());
                files.add(tree);
            }
        }
        return files;
    }

    /** The bench's kind of GPU: driver version, index, model, PCI bus ID and UUID, the last two unique. */
    private static String gpuAttributes(int index) {
        return String.format(Locale.ROOT, "\"driverVersion\":{\"version\":\"1.0.0\"},\"index\":{\"int\":%d},"
                + "\"model\":{\"string\":\"LATEST-GPU-MODEL\"},"
                + "\"resource.kubernetes.io/pciBusID\":{\"string\":\"0000:%02x:%02x.0\"},"
                + "\"uuid\":{\"string\":\"gpu-%08x-0000-4000-8000-000000000000\"}", index % 8, index / 256, index % 256, index);
    }

    private static String denseAttributes() {
        return IntStream.range(0, 32).mapToObj(a -> String.format(Locale.ROOT, "\"attribute%02d\":{\"string\":\"value-%02d\"}", a, a))
                .collect(Collectors.joining(","));
    }
}
