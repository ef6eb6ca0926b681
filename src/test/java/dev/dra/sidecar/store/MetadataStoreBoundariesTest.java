package dev.dra.sidecar.store;

import static dev.dra.sidecar.snapshot.ClaimKind.CLAIM;
import static dev.dra.sidecar.snapshot.ClaimKind.TEMPLATE_CLAIM;
import static dev.dra.sidecar.store.StoreFiles.driver;
import static dev.dra.sidecar.store.StoreFiles.generation;
import static dev.dra.sidecar.store.StoreFiles.metadata;
import static dev.dra.sidecar.store.StoreFiles.request;
import static dev.dra.sidecar.store.StoreOnFiles.BOUND;
import static dev.dra.sidecar.store.StoreOnFiles.gen;
import static dev.dra.sidecar.store.StoreOnFiles.start;
import static dev.dra.sidecar.store.StoreOnFiles.visible;
import static dev.dra.sidecar.testsupport.Eventually.awaitTrue;
import static dev.dra.sidecar.testsupport.MetadataFiles.create;
import static dev.dra.sidecar.testsupport.MetadataFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.decode.FailureCode;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.Served;
import dev.dra.sidecar.testsupport.MetadataFiles;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the store leaves alone, on real files in a temporary directory, with watch hints and with polling alone:
 * files outside the layout, symbolic links that lead out of the root, bytes past the size limit, and the root
 * itself, which it never writes to.
 */
class MetadataStoreBoundariesTest {

    @RegisterExtension
    final StoreErrorLog errorLog = new StoreErrorLog();

    @TempDir
    Path temp;

    private Path root;

    @AfterAll
    static void printPropagation() {
        StoreOnFiles.printPropagation();
    }

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void filesOutsideTheLayoutAreIgnored(boolean watch) throws IOException {
        root = temp.resolve("root");
        Files.createDirectories(root);
        try (MetadataStore store = start(StoreOnFiles.watchOnly(root, watch))) {
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
