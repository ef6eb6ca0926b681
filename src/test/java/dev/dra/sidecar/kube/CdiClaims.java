package dev.dra.sidecar.kube;

import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.testsupport.CdiSpecs;
import dev.dra.sidecar.testsupport.DeviceMetadataJson;
import dev.dra.sidecar.testsupport.MetadataFiles;
import java.nio.file.Path;

/**
 * The drivers' side of a node: for each prepared claim request, a metadata file on the host and the CDI spec that
 * mounts it into the containers' metadata tree (docs/node-mode.md, "What it reads").
 */
final class CdiClaims {

    static final String DRIVER = "gpu.example.com";

    /**
     * A metadata file as a driver prepared it.
     *
     * @param directory the name the containers see the claim by: its name, or the pod's claim name for a template
     * @param json the file's content: one DeviceMetadata object naming the claim's namespace, name and uid
     */
    record Prepared(ClaimKind kind, String directory, String request, String json) {}

    private final Path cdi;
    private final Path host;

    CdiClaims(Path cdi, Path host) {
        this.cdi = cdi;
        this.host = host;
    }

    /**
     * Writes the file of request {@code request} of the ResourceClaim {@code namespace/claim}, one device whose
     * {@code model} attribute is {@code model}, and the spec that mounts it where the pod's containers see the claim
     * as {@code directory} under {@code kind}.
     */
    Prepared prepare(String namespace, ClaimKind kind, String directory, String claim, String request, String model) {
        String json = DeviceMetadataJson.forClaim(claim).request(request)
                .attributes("\"model\":{\"string\":\"" + model + "\"}").json(namespace);
        Path file = MetadataFiles.create(host.resolve(namespace).resolve(claim).resolve(request)
                .resolve("metadata.json"), json);
        CdiSpecs.write(cdi, namespace + "_" + claim + "_" + request, file.toString(),
                MetadataFiles.file(Path.of(CdiSpecs.TREE), kind, directory, request, DRIVER).toString());
        return new Prepared(kind, directory, request, json);
    }
}
