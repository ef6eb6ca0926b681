package dev.dra.sidecar;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/** Metadata trees for tests: copies of checked-in trees in temporary directories, and objects as drivers write them. */
public final class TestTrees {

    private TestTrees() {}

    /** A fresh copy of {@code source} (a directory of the project) in a new temporary directory. */
    public static Path copyOf(String source, String prefix) {
        try {
            Path root = Files.createTempDirectory(prefix);
            Path from = Path.of(source);
            try (Stream<Path> tree = Files.walk(from)) {
                for (Path path : (Iterable<Path>) tree::iterator) {
                    Path target = root.resolve(from.relativize(path).toString());
                    if (Files.isDirectory(path)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(path, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One v1beta1 object with one device, as a driver writes it. */
    public static String object(String claim, String request, long generation, String driver, String pool,
            String device, String attributes) {
        return """
                {"kind":"DeviceMetadata","apiVersion":"metadata.resource.k8s.io/v1beta1",\
                "metadata":{"name":"%s","namespace":"default","uid":"uid-%s","generation":%d},\
                "requests":[{"name":"%s","devices":[{"driver":"%s","pool":"%s","name":"%s","attributes":{%s}}]}]}
                """.formatted(claim, claim, generation, request, driver, pool, device, attributes);
    }
}
