package dev.dra.sidecar.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CDI specs as a DRA driver's kubelet plugin writes them for a prepared claim (the upstream helper's layout): one
 * device whose only container edit is a read-only bind mount of a host metadata file into the container's metadata
 * tree. Node mode reads nothing of a spec but those mounts.
 */
public final class CdiSpecs {

    /** Where the kubelet mounts the metadata in a container (the upstream {@code ContainerDir}). */
    public static final String TREE = "/var/run/kubernetes.io/dra-device-attributes";

    private CdiSpecs() {}

    /**
     * Writes {@code <cdi>/gpu.example.com_metadata_<device>.json}, whose device {@code device} mounts
     * {@code hostPath} at {@code containerPath}; returns the spec file.
     */
    public static Path write(Path cdi, String device, String hostPath, String containerPath) {
        try {
            return Files.writeString(cdi.resolve("gpu.example.com_metadata_" + device + ".json"), """
                    {"cdiVersion":"0.5.0","kind":"gpu.example.com/metadata","devices":[{"name":"%s","containerEdits":\
                    {"mounts":[{"hostPath":"%s","containerPath":"%s","options":["ro","bind"]}]}}]}
                    """.formatted(device, hostPath, containerPath));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
