package dev.dra.sidecar.kube;

import dev.dra.sidecar.snapshot.Served;
import dev.dra.sidecar.store.MetadataStore;
import dev.dra.sidecar.store.TestStoreConfig;
import dev.dra.sidecar.store.refresh.RefreshObserver;
import dev.dra.sidecar.testsupport.MetadataFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the sidecar serves for a metadata file at {@code /<claims|template-claims>/<directory>/<request>}: the body
 * of the sidecar's own store (sidecar mode, the store its API answers from) on a tree that holds that one file
 * where the kubelet mounts it.
 */
final class SidecarBodies {

    private SidecarBodies() {}

    static String request(CdiClaims.Prepared file) {
        try {
            Path root = Files.createTempDirectory("dra-sidecar-bodies");
            MetadataFiles.create(MetadataFiles.file(root, file.kind(), file.directory(), file.request(),
                    CdiClaims.DRIVER), file.json());
            try (MetadataStore store = new MetadataStore(TestStoreConfig.of(root, "watch", "false"),
                    RefreshObserver.NONE)) {
                store.start();
                Served merged = store.current().claims(file.kind()).claims().get(file.directory()).requests()
                        .get(file.request()).merged();
                return new String(((Served.Available) merged).body(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
