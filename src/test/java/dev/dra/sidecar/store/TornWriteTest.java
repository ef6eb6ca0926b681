package dev.dra.sidecar.store;

import static dev.dra.sidecar.snapshot.ClaimKind.CLAIM;
import static dev.dra.sidecar.testsupport.Eventually.awaitTrue;
import static dev.dra.sidecar.testsupport.MetadataFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dra.sidecar.decode.FailureCode;
import dev.dra.sidecar.snapshot.DriverEntry;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.RequestEntry;
import dev.dra.sidecar.snapshot.Served;
import dev.dra.sidecar.store.refresh.RefreshObserver;
import dev.dra.sidecar.testsupport.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A driver rewriting its file in place as fast as it can ({@code os.WriteFile}: truncate, then write; here in
 * two halves to widen the window) while readers query the store without pause. Readers must never see a
 * failure, a missing request, a generation going back, or an object stitched from two writes; the store's
 * failed (torn) reads are counted and printed.
 */
class TornWriteTest {

    private static final int MIN_WRITES = 2_000;
    private static final Duration MIN_WRITING = Duration.ofMillis(1_000);
    /** Six digits throughout, so every generation's file has the same size: a stitched read decodes. */
    private static final long FIRST = 100_000;
    private static final int DEVICES = 26;

    @RegisterExtension
    final StoreErrorLog errorLog = new StoreErrorLog();

    /** On tmpfs when there is one, so that the writer, not the disk, sets the pace. */
    @TempDir(factory = FileTrees.OnTmpfs.class)
    Path temp;

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {true, false})
    void readersNeverSeeATornWrite(boolean watch) throws Exception {
        Path root = temp.resolve("root");
        Path f = file(root, CLAIM, "c", "r", "d");
        Files.createDirectories(f.getParent());
        Files.write(f, content(FIRST));
        int size = content(FIRST).length;
        assertTrue(size > 8192, "larger than one read call: " + size);

        Map<FailureCode, AtomicLong> failedReads = new ConcurrentHashMap<>();
        AtomicLong goodReads = new AtomicLong();
        RefreshObserver observer = new RefreshObserver() {
            @Override
            public void fileRead(FailureCode failure) {
                if (failure == null) {
                    goodReads.incrementAndGet();
                } else {
                    failedReads.computeIfAbsent(failure, c -> new AtomicLong()).incrementAndGet();
                }
            }
        };
        try (MetadataStore store = new MetadataStore(TestStoreConfig.of(root, "watch", String.valueOf(watch)), observer)) {
            store.start();
            assertEquals(FIRST, generation(store.current()).generation());

            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
            Set<Long> staleSnapshots = ConcurrentHashMap.newKeySet();
            AtomicLong queries = new AtomicLong();
            List<Thread> readers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Thread reader = new Thread(() -> read(store, stop, violations, staleSnapshots, queries), "reader-" + i);
                reader.start();
                readers.add(reader);
            }

            long start = System.nanoTime();
            long g = FIRST;
            while (g - FIRST < MIN_WRITES || System.nanoTime() - start < MIN_WRITING.toNanos()) {
                writeTorn(f, content(++g));
            }
            long writingNanos = System.nanoTime() - start;
            long last = g;
            Duration settled = awaitTrue(StoreOnFiles.BOUND, "final generation " + last,
                    () -> generation(store.current()).generation() == last);
            stop.set(true);
            for (Thread reader : readers) {
                reader.join(TimeUnit.SECONDS.toMillis(5));
            }

            long writes = last - FIRST;
            System.out.printf("[torn watch=%s %s] %d writes of %d bytes in %d ms (%.0f/s); store reads: %d good, failed %s;"
                    + " %d reader queries saw %d distinct stale snapshots; final generation after %d ms%n", watch,
                    Files.getFileStore(f).type(),
                    writes, size, TimeUnit.NANOSECONDS.toMillis(writingNanos), writes * 1e9 / writingNanos,
                    goodReads.get(), new TreeMap<>(failedReads), queries.get(), staleSnapshots.size(),
                    settled.toMillis());
            assertEquals(List.of(), List.copyOf(violations), "what readers saw");
            assertTrue(queries.get() > 0);
            MetadataSnapshot end = store.current();
            var served = (Served.Available) StoreFiles.request(end, CLAIM, "c", "r").drivers().get("d").served();
            assertEquals(null, served.staleReason(), "the final good read clears the stale mark");
        }
    }

    private static void read(MetadataStore store, AtomicBoolean stop, ConcurrentLinkedQueue<String> violations,
            Set<Long> staleSnapshots, AtomicLong queries) {
        long highest = 0;
        long lastSequence = -1;
        while (!stop.get() && violations.size() < 10) {
            MetadataSnapshot snapshot = store.current();
            queries.incrementAndGet();
            if (snapshot.sequence() == lastSequence) {
                // Two cores for readers, writer and store: a pure spin would starve the other two.
                LockSupport.parkNanos(20_000);
                continue;
            }
            lastSequence = snapshot.sequence();
            Seen seen;
            try {
                seen = generation(snapshot);
            } catch (RuntimeException e) {
                violations.add("snapshot " + snapshot.sequence() + ": " + e.getMessage());
                continue;
            }
            if (seen.generation() != seen.marker()) {
                violations.add("snapshot " + snapshot.sequence() + " stitched from two writes: generation "
                        + seen.generation() + ", last device says " + seen.marker());
            }
            if (seen.generation() < highest) {
                violations.add("snapshot " + snapshot.sequence() + " went back from " + highest + " to "
                        + seen.generation());
            }
            highest = Math.max(highest, seen.generation());
            if (seen.stale()) {
                staleSnapshots.add(snapshot.sequence());
            }
        }
    }

    private record Seen(long generation, long marker, boolean stale) {}

    /** What an HTTP client would get for the driver: its generation, and the marker in its last device. */
    private static Seen generation(MetadataSnapshot snapshot) {
        RequestEntry request = StoreFiles.request(snapshot, CLAIM, "c", "r");
        if (request == null) {
            throw new IllegalStateException("request missing");
        }
        DriverEntry driver = request.drivers().get("d");
        if (driver == null) {
            throw new IllegalStateException("driver missing");
        }
        if (!(driver.served() instanceof Served.Available available)) {
            throw new IllegalStateException("driver unavailable: " + driver.served());
        }
        if (!(request.merged() instanceof Served.Available)) {
            throw new IllegalStateException("request unavailable: " + request.merged());
        }
        JsonNode body = StoreFiles.body(available);
        JsonNode devices = body.path("requests").path(0).path("devices");
        long marker = devices.path(devices.size() - 1).path("attributes").path("generation").path("int").asLong();
        return new Seen(body.path("metadata").path("generation").asLong(), marker, available.staleReason() != null);
    }

    /** About 9 KiB: more than one 8 KiB read call of the store's reader, with the generation at both ends. */
    private static byte[] content(long generation) {
        ObjectNode root = StoreFiles.JSON.createObjectNode();
        root.put("kind", "DeviceMetadata").put("apiVersion", "metadata.resource.k8s.io/v1beta1");
        root.putObject("metadata").put("name", "c").put("namespace", "ns").put("uid", "u").put("generation", generation);
        ArrayNode devices = root.putArray("requests").addObject().put("name", "r").putArray("devices");
        for (int i = 0; i < DEVICES; i++) {
            ObjectNode device = devices.addObject().put("driver", "gpu.example.com").put("pool", "worker-0")
                    .put("name", "gpu-" + i);
            ObjectNode attributes = device.putObject("attributes");
            attributes.putObject("model").put("string", "LATEST-GPU-MODEL");
            attributes.putObject("uuid").put("string", String.format("gpu-18db0e85-99e9-c746-8531-%012d", i));
            attributes.putObject("index").put("int", i);
            if (i == DEVICES - 1) {
                attributes.putObject("generation").put("int", generation);
            }
        }
        try {
            return StoreFiles.JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Truncate, write the first half, then the second: the widest window a reader can fall into. */
    private static void writeTorn(Path file, byte[] content) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            int half = content.length / 2;
            ByteBuffer first = ByteBuffer.wrap(content, 0, half);
            while (first.hasRemaining()) {
                channel.write(first);
            }
            ByteBuffer second = ByteBuffer.wrap(content, half, content.length - half);
            while (second.hasRemaining()) {
                channel.write(second);
            }
        }
    }
}
