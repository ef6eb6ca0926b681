package dev.dra.sidecar.store;

import static dev.dra.sidecar.snapshot.ClaimKind.CLAIM;
import static dev.dra.sidecar.snapshot.ClaimKind.TEMPLATE_CLAIM;
import static dev.dra.sidecar.store.StoreFiles.driver;
import static dev.dra.sidecar.store.StoreFiles.metadata;
import static dev.dra.sidecar.store.StoreFiles.request;
import static dev.dra.sidecar.store.StoreOnFiles.BOUND;
import static dev.dra.sidecar.store.StoreOnFiles.gen;
import static dev.dra.sidecar.store.StoreOnFiles.visible;
import static dev.dra.sidecar.testsupport.Eventually.awaitTrue;
import static dev.dra.sidecar.testsupport.MetadataFiles.create;
import static dev.dra.sidecar.testsupport.MetadataFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.decode.FailureCode;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.Served;
import dev.dra.sidecar.store.file.FileLook;
import dev.dra.sidecar.store.refresh.RefreshObserver;
import dev.dra.sidecar.testsupport.FileTrees;
import dev.dra.sidecar.testsupport.MetadataFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The store on real files in a temporary directory, each change made the way a driver or the kubelet makes
 * it, with watch hints and with polling alone. Every change must reach {@link MetadataStore#current()} within
 * {@link StoreOnFiles#BOUND}; the slowest propagation per kind of change is printed at the end. What the store
 * never reads or writes: {@code MetadataStoreBoundariesTest}.
 */
class MetadataStoreFilesTest {

    @RegisterExtension
    final StoreErrorLog errorLog = new StoreErrorLog();

    @TempDir
    Path temp;

    private Path root;

    @AfterAll
    static void printPropagation() {
        StoreOnFiles.printPropagation();
    }

    private MetadataStore start(boolean watch) {
        root = temp.resolve("root");
        return StoreOnFiles.start(TestStoreConfig.of(root, "watch", String.valueOf(watch)));
    }

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void filesAndDirectoriesCreatedAfterStartAppearInBothLayouts(boolean watch) throws IOException {
        root = temp.resolve("root");
        Files.createDirectories(root);
        try (MetadataStore store = StoreOnFiles.start(StoreOnFiles.watchOnly(root, watch))) {
            assertTrue(store.status().rootExists());
            assertTrue(store.current().claims(CLAIM).claims().isEmpty());

            create(file(root, CLAIM, "claim-a", "gpu", "gpu.example.com"), metadata(3));
            create(file(root, TEMPLATE_CLAIM, "gpu", "gpu", "gpu.example.com"), metadata(4));
            visible("create", watch, store, () -> Long.valueOf(3).equals(gen(store, CLAIM, "claim-a", "gpu", "gpu.example.com"))
                    && Long.valueOf(4).equals(gen(store, TEMPLATE_CLAIM, "gpu", "gpu", "gpu.example.com")));

            // A second driver of an existing request, and a second request of an existing claim.
            create(file(root, CLAIM, "claim-a", "gpu", "nic.example.com"), metadata(5));
            create(file(root, CLAIM, "claim-a", "nic", "nic.example.com"), metadata(6));
            visible("create", watch, store, () -> Long.valueOf(5).equals(gen(store, CLAIM, "claim-a", "gpu", "nic.example.com"))
                    && Long.valueOf(6).equals(gen(store, CLAIM, "claim-a", "nic", "nic.example.com")));

            MetadataSnapshot now = store.current();
            assertEquals(Set.of("gpu", "nic"), now.claims(CLAIM).claims().get("claim-a").requests().keySet());
            var merged = assertInstanceOf(Served.Available.class, request(now, CLAIM, "claim-a", "gpu").merged());
            assertEquals(2, request(now, CLAIM, "claim-a", "gpu").devices().size(), "both drivers' devices merged");
            assertNull(merged.staleReason());
            // The template layout keeps the pod's claim name as the key, and files never mix across layouts.
            assertEquals(Set.of("gpu"), now.claims(TEMPLATE_CLAIM).claims().keySet());
            assertEquals(Set.of("claim-a"), now.claims(CLAIM).claims().keySet());
        }
    }

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void rewritesInPlaceKeepTheInodeAndAreSeen(boolean watch) throws IOException {
        root = temp.resolve("root");
        Path f = file(root, CLAIM, "c", "r", "d");
        create(f, metadata(1));
        Object inode = Files.readAttributes(f, BasicFileAttributes.class).fileKey();
        try (MetadataStore store = StoreOnFiles.start(TestStoreConfig.of(root, "watch", String.valueOf(watch)))) {
            assertEquals(1L, gen(store, CLAIM, "c", "r", "d"), "first snapshot is complete at start()");
            for (long g = 2; g <= 6; g++) {
                MetadataFiles.rewriteInPlace(f, metadata(g));
                long want = g;
                visible("rewrite-in-place", watch, store, () -> Long.valueOf(want).equals(gen(store, CLAIM, "c", "r", "d")));
            }
            assertEquals(inode, Files.readAttributes(f, BasicFileAttributes.class).fileKey(), "same inode throughout");
            // Same size, same content apart from one digit: only the modification time tells.
            MetadataFiles.rewriteInPlace(f, metadata(7));
            visible("rewrite-in-place", watch, store, () -> Long.valueOf(7).equals(gen(store, CLAIM, "c", "r", "d")));
        }
    }

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void aFileLeftEmptyIsServedStaleWithTheReasonOnlyOnceItSettled(boolean watch) throws IOException {
        root = temp.resolve("root");
        Path f = file(root, CLAIM, "c", "r", "d");
        create(f, metadata(1));
        // When each reported failure came: a read held back while the file may still be written is none.
        List<Long> failuresAtMillis = new CopyOnWriteArrayList<>();
        RefreshObserver failures = new RefreshObserver() {
            @Override
            public void fileRead(FailureCode failure) {
                if (failure != null) {
                    failuresAtMillis.add(System.currentTimeMillis());
                }
            }
        };
        try (MetadataStore store = StoreOnFiles.start(TestStoreConfig.of(root, "watch", String.valueOf(watch)), failures)) {
            MetadataFiles.rewriteInPlace(f, new byte[0]); // truncated, and the write never comes
            long modified = Files.getLastModifiedTime(f).toMillis();
            visible("left-empty", watch, store, () -> {
                var served = driver(store.current(), CLAIM, "c", "r", "d").served();
                return served instanceof Served.Available a && a.staleReason() != null;
            });
            long sinceModified = System.currentTimeMillis() - modified;
            assertTrue(sinceModified >= FileLook.SETTLE_MILLIS, "served stale " + sinceModified
                    + " ms after the truncate: a write may still have been coming");
            var served = (Served.Available) driver(store.current(), CLAIM, "c", "r", "d").served();
            assertTrue(served.staleReason().startsWith("no-metadata-objects: "), served.staleReason());
            assertFalse(failuresAtMillis.isEmpty(), "the settled empty file is a counted failure");
            for (long at : failuresAtMillis) {
                assertTrue(at - modified >= FileLook.SETTLE_MILLIS, "a failure counted " + (at - modified)
                        + " ms after the truncate, while a write may still have been coming: " + failuresAtMillis);
            }
            assertEquals(1L, gen(store, CLAIM, "c", "r", "d"), "the last good object stays served");

            MetadataFiles.rewriteInPlace(f, metadata(2));
            visible("rewrite-in-place", watch, store, () -> Long.valueOf(2).equals(gen(store, CLAIM, "c", "r", "d")));
            assertNull(((Served.Available) driver(store.current(), CLAIM, "c", "r", "d").served()).staleReason());
        }
    }

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void replacementByRenameIsSeen(boolean watch) throws IOException {
        root = temp.resolve("root");
        Path f = file(root, TEMPLATE_CLAIM, "gpu", "gpu", "gpu.example.com");
        create(f, metadata(1));
        try (MetadataStore store = StoreOnFiles.start(TestStoreConfig.of(root, "watch", String.valueOf(watch)))) {
            for (long g = 2; g <= 4; g++) {
                // The replacement is written while the file it replaces still exists, so its inode differs from
                // the one just before it; a freed number may come back two renames later, so only neighbours
                // are compared.
                Object before = Files.readAttributes(f, BasicFileAttributes.class).fileKey();
                MetadataFiles.replaceByRename(f, metadata(g));
                assertNotEquals(before, Files.readAttributes(f, BasicFileAttributes.class).fileKey(), "a new inode");
                long want = g;
                visible("rename", watch, store,
                        () -> Long.valueOf(want).equals(gen(store, TEMPLATE_CLAIM, "gpu", "gpu", "gpu.example.com")));
            }
            // The temporary name never counts: it does not end in -metadata.json.
            assertEquals(Set.of("gpu.example.com"),
                    request(store.current(), TEMPLATE_CLAIM, "gpu", "gpu").drivers().keySet());
        }
    }

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void deletionsOfFileRequestAndClaimAreSeen(boolean watch) throws IOException {
        root = temp.resolve("root");
        create(file(root, CLAIM, "c", "r", "a"), metadata(1));
        create(file(root, CLAIM, "c", "r", "b"), metadata(2));
        create(file(root, CLAIM, "c", "r2", "a"), metadata(3));
        create(file(root, CLAIM, "c2", "r", "a"), metadata(4));
        create(file(root, CLAIM, "keep", "r", "a"), metadata(5));
        try (MetadataStore store = StoreOnFiles.start(TestStoreConfig.of(root, "watch", String.valueOf(watch)))) {
            assertEquals(2L, gen(store, CLAIM, "c", "r", "b"));

            Files.delete(file(root, CLAIM, "c", "r", "b"));
            visible("delete-file", watch, store, () -> gen(store, CLAIM, "c", "r", "b") == null);
            assertEquals(Set.of("a"), request(store.current(), CLAIM, "c", "r").drivers().keySet());

            FileTrees.deleteTree(root.resolve("resourceclaims/c/r2"));
            visible("delete-request-dir", watch, store, () -> request(store.current(), CLAIM, "c", "r2") == null);
            assertEquals(Set.of("r"), store.current().claims(CLAIM).claims().get("c").requests().keySet());

            FileTrees.deleteTree(root.resolve("resourceclaims/c2"));
            visible("delete-claim-dir", watch, store, () -> !store.current().claims(CLAIM).claims().containsKey("c2"));
            assertEquals(Set.of("c", "keep"), store.current().claims(CLAIM).claims().keySet());
            assertEquals(5L, gen(store, CLAIM, "keep", "r", "a"));
        }
    }

    /**
     * One file goes and another comes between two cycles (an unprepare and a prepare): the walk that the
     * vanished file triggers finds the new one in the same cycle.
     */
    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void aFileVanishingWhileAnotherAppearsIsHandledInOneCycle(boolean watch) throws IOException {
        root = temp.resolve("root");
        create(file(root, CLAIM, "old", "r", "d"), metadata(1));
        Files.createDirectories(file(root, CLAIM, "new", "r", "d").getParent());
        try (MetadataStore store = StoreOnFiles.start(TestStoreConfig.of(root, "watch", String.valueOf(watch)))) {
            for (int i = 0; i < 3; i++) {
                String gone = i % 2 == 0 ? "old" : "new";
                String comes = i % 2 == 0 ? "new" : "old";
                Files.delete(file(root, CLAIM, gone, "r", "d"));
                Files.write(file(root, CLAIM, comes, "r", "d"), metadata(10 + i));
                long want = 10 + i;
                visible("delete+create", watch, store, () -> gen(store, CLAIM, gone, "r", "d") == null
                        && Long.valueOf(want).equals(gen(store, CLAIM, comes, "r", "d")));
            }
        }
    }

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void aRootCreatedAfterStartIsFound(boolean watch) throws IOException {
        try (MetadataStore store = start(watch)) {
            assertFalse(store.status().rootExists());
            assertTrue(store.current().claims(CLAIM).claims().isEmpty());
            assertTrue(store.current().claims(TEMPLATE_CLAIM).claims().isEmpty());

            create(file(root, CLAIM, "c", "r", "d"), metadata(8));
            visible("root-created", watch, store, () -> Long.valueOf(8).equals(gen(store, CLAIM, "c", "r", "d")));
            // Status is set when the cycle that published ends, just after the snapshot.
            awaitTrue(BOUND, "status says the root exists", () -> store.status().rootExists());

            // ...and once there, a rewrite is seen like any other.
            MetadataFiles.rewriteInPlace(file(root, CLAIM, "c", "r", "d"), metadata(9));
            visible("rewrite-in-place", watch, store, () -> Long.valueOf(9).equals(gen(store, CLAIM, "c", "r", "d")));

            FileTrees.deleteTree(root);
            visible("root-deleted", watch, store, () -> !store.status().rootExists()
                    && store.current().claims(CLAIM).claims().isEmpty());
        }
    }
}
