package dev.dra.sidecar.store;

import static dev.dra.sidecar.snapshot.ClaimKind.CLAIM;
import static dev.dra.sidecar.snapshot.ClaimKind.TEMPLATE_CLAIM;
import static dev.dra.sidecar.store.StoreFiles.driver;
import static dev.dra.sidecar.store.StoreFiles.generation;
import static dev.dra.sidecar.store.StoreFiles.metadata;
import static dev.dra.sidecar.store.StoreFiles.request;
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
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.Served;
import dev.dra.sidecar.testsupport.FileTrees;
import dev.dra.sidecar.testsupport.MetadataFiles;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The store on real files in a temporary directory, each change made the way a driver or the kubelet makes
 * it, with watch hints and with polling alone. Every change must reach {@link MetadataStore#current()} within
 * {@link #BOUND}; the slowest propagation per kind of change is printed at the end.
 */
class MetadataStoreFilesTest {

    /** Polling alone finds new files at the rescan interval (2 s by default); everything else is faster. */
    private static final Duration BOUND = Duration.ofSeconds(5);

    private static final Map<String, Duration> SLOWEST = new ConcurrentHashMap<>();

    @RegisterExtension
    final StoreErrorLog errorLog = new StoreErrorLog();

    @TempDir
    Path temp;

    private Path root;

    @AfterAll
    static void printPropagation() {
        System.out.println("[store] slowest propagation per change: " + new TreeMap<>(SLOWEST).entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue().toMillis() + "ms").collect(Collectors.joining(", ")));
    }

    private MetadataStore start(boolean watch) {
        root = temp.resolve("root");
        return start(TestStoreConfig.of(root, "watch", String.valueOf(watch)));
    }

    private static MetadataStore start(StoreConfig settings) {
        return start(settings, RefreshObserver.NONE);
    }

    private static MetadataStore start(StoreConfig settings, RefreshObserver observer) {
        MetadataStore store = new MetadataStore(settings, observer);
        store.start();
        // File notifications are set up by the refresh thread, just after the first scan.
        awaitTrue(BOUND, "file notifications as configured", () -> store.status().watchMode()
                == (settings.watch() ? WatchMode.INOTIFY : WatchMode.POLLING) && store.status().cycles() > 1);
        return store;
    }

    /**
     * With watch hints, a new file must not wait for the rescan interval (2 s): the watch on its new directory,
     * or the walk right after registering it, finds it.
     */
    private static final Duration WATCHED_CREATE_BOUND = Duration.ofMillis(1_000);

    private static void visible(String change, boolean watch, MetadataStore store, Supplier<Boolean> condition) {
        Duration took = awaitTrue(watch && change.equals("create") ? WATCHED_CREATE_BOUND : BOUND, change, condition::get);
        SLOWEST.merge(change + (watch ? "[watch]" : "[poll]"), took, (a, b) -> a.compareTo(b) >= 0 ? a : b);
    }

    private static Long gen(MetadataStore store, ClaimKind kind, String claim, String request, String driver) {
        return generation(store.current(), kind, claim, request, driver);
    }

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void filesAndDirectoriesCreatedAfterStartAppearInBothLayouts(boolean watch) throws IOException {
        root = temp.resolve("root");
        Files.createDirectories(root);
        try (MetadataStore store = start(TestStoreConfig.of(root, "watch", String.valueOf(watch)))) {
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
        try (MetadataStore store = start(TestStoreConfig.of(root, "watch", String.valueOf(watch)))) {
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
        try (MetadataStore store = start(TestStoreConfig.of(root, "watch", String.valueOf(watch)), failures)) {
            MetadataFiles.rewriteInPlace(f, new byte[0]); // truncated, and the write never comes
            long modified = Files.getLastModifiedTime(f).toMillis();
            visible("left-empty", watch, store, () -> {
                var served = driver(store.current(), CLAIM, "c", "r", "d").served();
                return served instanceof Served.Available a && a.staleReason() != null;
            });
            long sinceModified = System.currentTimeMillis() - modified;
            assertTrue(sinceModified >= MetadataStore.SETTLE_MILLIS, "served stale " + sinceModified
                    + " ms after the truncate: a write may still have been coming");
            var served = (Served.Available) driver(store.current(), CLAIM, "c", "r", "d").served();
            assertTrue(served.staleReason().startsWith("no-metadata-objects: "), served.staleReason());
            assertFalse(failuresAtMillis.isEmpty(), "the settled empty file is a counted failure");
            for (long at : failuresAtMillis) {
                assertTrue(at - modified >= MetadataStore.SETTLE_MILLIS, "a failure counted " + (at - modified)
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
        Object inode = Files.readAttributes(f, BasicFileAttributes.class).fileKey();
        try (MetadataStore store = start(TestStoreConfig.of(root, "watch", String.valueOf(watch)))) {
            for (long g = 2; g <= 4; g++) {
                MetadataFiles.replaceByRename(f, metadata(g));
                long want = g;
                visible("rename", watch, store,
                        () -> Long.valueOf(want).equals(gen(store, TEMPLATE_CLAIM, "gpu", "gpu", "gpu.example.com")));
            }
            assertNotEquals(inode, Files.readAttributes(f, BasicFileAttributes.class).fileKey(), "a new inode");
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
        try (MetadataStore store = start(TestStoreConfig.of(root, "watch", String.valueOf(watch)))) {
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
        try (MetadataStore store = start(TestStoreConfig.of(root, "watch", String.valueOf(watch)))) {
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

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void filesOutsideTheLayoutAreIgnored(boolean watch) throws IOException {
        root = temp.resolve("root");
        Files.createDirectories(root);
        try (MetadataStore store = start(TestStoreConfig.of(root, "watch", String.valueOf(watch)))) {
            byte[] good = metadata(1);
            create(root.resolve("d-metadata.json"), good);
            create(root.resolve("resourceclaims/d-metadata.json"), good);
            create(root.resolve("resourceclaims/c/d-metadata.json"), good);
            create(root.resolve("resourceclaims/c/r/sub/d-metadata.json"), good);
            create(root.resolve("resourceclaims/c/r/d.json"), good);
            create(root.resolve("resourceclaims/c/r/metadata.json"), good);
            create(root.resolve("resourceclaims/c/r/d-metadata.json.tmp"), good);
            create(root.resolve("resourceclaims/c/r/dir-metadata.json/x-metadata.json"), good);
            create(root.resolve("claims/c/r/d-metadata.json"), good);
            create(root.resolve("resourceclaimtemplates/p/r/x/d-metadata.json"), good);
            // The sentinel comes last: the walk that finds it has seen everything above.
            create(file(root, CLAIM, "c", "r", "sentinel"), metadata(2));
            visible("create", watch, store, () -> Long.valueOf(2).equals(gen(store, CLAIM, "c", "r", "sentinel")));

            MetadataSnapshot now = store.current();
            assertEquals(Set.of("c"), now.claims(CLAIM).claims().keySet());
            assertEquals(Set.of("r"), now.claims(CLAIM).claims().get("c").requests().keySet());
            assertEquals(Set.of("sentinel"), request(now, CLAIM, "c", "r").drivers().keySet());
            // The empty request directory p/r of the template layout has no file: no claim.
            assertEquals(Set.of(), now.claims(TEMPLATE_CLAIM).claims().keySet());
        }
    }

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void symbolicLinksAreFollowedOnlyInsideTheRoot(boolean watch) throws IOException {
        root = temp.resolve("root");
        Path outside = temp.resolve("outside");
        create(outside.resolve("canary-metadata.json"), metadata(666));
        create(outside.resolve("r/d-metadata.json"), metadata(666));
        create(outside.resolve("c/r/d-metadata.json"), metadata(666));
        create(file(root, CLAIM, "real", "r", "d"), metadata(1));
        Path linked = file(root, CLAIM, "c", "r", "file-link");
        Files.createDirectories(linked.getParent());
        Files.createSymbolicLink(linked, outside.resolve("canary-metadata.json"));
        Files.createSymbolicLink(root.resolve("resourceclaims/c/request-link"), outside.resolve("r"));
        Files.createSymbolicLink(root.resolve("resourceclaims/claim-link"), outside.resolve("c"));
        // Links that stay inside the root count, relative or absolute.
        Files.createSymbolicLink(file(root, CLAIM, "c", "r", "inside-link"),
                Path.of("../../real/r/d-metadata.json"));
        Files.createSymbolicLink(root.resolve("resourceclaims/alias"), root.resolve("resourceclaims/real"));
        try (MetadataStore store = start(TestStoreConfig.of(root, "watch", String.valueOf(watch)))) {
            MetadataSnapshot now = store.current();
            assertEquals(Set.of("alias", "c", "real"), now.claims(CLAIM).claims().keySet());
            assertEquals(Set.of("r"), now.claims(CLAIM).claims().get("c").requests().keySet());
            assertEquals(Set.of("inside-link"), request(now, CLAIM, "c", "r").drivers().keySet());
            assertEquals(1L, generation(now, CLAIM, "c", "r", "inside-link"));
            assertEquals(1L, generation(now, CLAIM, "alias", "r", "d"));
        }
    }

    /**
     * A file already known is swapped for a link to a file outside the root (a rename, so the name never
     * vanishes): the store must not read through the link, not even until its next walk.
     */
    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void aKnownFileSwappedForALinkOutsideIsNotFollowed(boolean watch) throws IOException {
        root = temp.resolve("root");
        Path canary = temp.resolve("outside/canary-metadata.json");
        create(canary, metadata(666));
        Path f = file(root, CLAIM, "c", "r", "d");
        create(f, metadata(1));
        try (MetadataStore store = start(TestStoreConfig.of(root, "watch", String.valueOf(watch)))) {
            Path link = f.resolveSibling(".swap");
            Files.createSymbolicLink(link, canary);
            Files.move(link, f, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            visible("swapped-for-outside-link", watch, store, () -> {
                Long g = gen(store, CLAIM, "c", "r", "d");
                assertNotEquals(Long.valueOf(666), g, "content read through a link leading out of the root");
                return g == null;
            });
        }
    }

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void aFileAboveTheSizeLimitIsNotReadPastIt(boolean watch) throws IOException {
        root = temp.resolve("root");
        long limit = 64 * 1024;
        // Sparse: reading it all would take minutes and fill the heap many times over.
        Path huge = file(root, CLAIM, "c", "r", "huge");
        Files.createDirectories(huge.getParent());
        try (RandomAccessFile raf = new RandomAccessFile(huge.toFile(), "rw")) {
            raf.setLength(1L << 40);
        }
        Path growing = file(root, CLAIM, "c", "r2", "d");
        create(growing, metadata(1));
        long readBefore = bytesReadByThisProcess();
        try (MetadataStore store = start(TestStoreConfig.of(root, "watch", String.valueOf(watch), "max-file-size", String.valueOf(limit)))) {
            var failure = assertInstanceOf(Served.Unavailable.class,
                    driver(store.current(), CLAIM, "c", "r", "huge").served());
            assertEquals(FailureCode.FILE_TOO_LARGE, failure.code());
            assertInstanceOf(Served.Unavailable.class, request(store.current(), CLAIM, "c", "r").merged());

            // A known file that grows past the limit keeps its last good object, marked stale.
            byte[] big = new byte[(int) limit + 1];
            java.util.Arrays.fill(big, (byte) ' ');
            byte[] good = metadata(2);
            System.arraycopy(good, 0, big, 0, good.length);
            MetadataFiles.rewriteInPlace(growing, big);
            visible("grow-past-limit", watch, store, () -> {
                var served = driver(store.current(), CLAIM, "c", "r2", "d").served();
                return served instanceof Served.Available a && a.staleReason() != null
                        && a.staleReason().contains("larger than the limit");
            });
            assertEquals(1L, gen(store, CLAIM, "c", "r2", "d"));
            MetadataFiles.rewriteInPlace(growing, metadata(3));
            visible("rewrite-in-place", watch, store, () -> Long.valueOf(3).equals(gen(store, CLAIM, "c", "r2", "d")));
        }
        long read = bytesReadByThisProcess() - readBefore;
        assertTrue(read < 256L * 1024 * 1024, "read " + read + " bytes: the 1 TiB file was read past the limit");
    }

    /** {@code rchar} of {@code /proc/self/io}: every byte this JVM read from any file, so an upper bound. */
    private static long bytesReadByThisProcess() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/io")).stream().filter(l -> l.startsWith("rchar:"))
                .mapToLong(l -> Long.parseLong(l.substring(6).trim())).findFirst().orElseThrow();
    }

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void theStoreNeverWritesUnderTheRoot(boolean watch) throws IOException {
        root = temp.resolve("root");
        create(file(root, CLAIM, "c", "r", "d"), metadata(1));
        create(file(root, TEMPLATE_CLAIM, "p", "r", "d"), metadata(1));
        create(file(root, CLAIM, "c", "r", "broken"), new byte[0]);
        Files.createDirectories(root.resolve("resourceclaims/empty"));
        Map<String, String> before = listing(root);
        try (MetadataStore store = start(TestStoreConfig.of(root, "watch", String.valueOf(watch),
                "poll-interval", "10ms", "safety-poll-interval", "10ms", "rescan-interval", "20ms",
                "retry-backoff-max", "20ms"))) {
            assertEquals(1L, gen(store, CLAIM, "c", "r", "d"));
            long cycles = store.status().cycles();
            // Enough cycles for many walks, polls and retries of the broken file.
            awaitTrue(BOUND, "30 refresh cycles", () -> store.status().cycles() >= cycles + 30);
        }
        assertEquals(before, listing(root), "the tree under the root changed");
    }

    /** Every entry under {@code dir} with type, size, inode, modification and change times. */
    private static Map<String, String> listing(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.collect(Collectors.toMap(p -> dir.relativize(p).toString(), p -> {
                try {
                    Map<String, Object> a = Files.readAttributes(p, "unix:mode,size,ino,lastModifiedTime,ctime",
                            java.nio.file.LinkOption.NOFOLLOW_LINKS);
                    return a.get("mode") + " " + a.get("size") + " " + a.get("ino") + " " + a.get("lastModifiedTime")
                            + " " + a.get("ctime");
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, (a, b) -> a, TreeMap::new));
        }
    }
}
