package dev.dra.sidecar.store;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.snapshot.ClaimEntry;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.ClaimSet;
import dev.dra.sidecar.snapshot.DriverEntry;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.RequestEntry;
import dev.dra.sidecar.snapshot.Served;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.function.Supplier;

/** Metadata files as a driver writes them, and how a test reads what the store serves. */
final class StoreFiles {

    static final ObjectMapper JSON = new ObjectMapper();

    private static final String TEMPLATE = fixture("website-dra-features_v1beta1_template-claim_podClaimName_gpu.json");

    private StoreFiles() {}

    static String fixture(String name) {
        try (InputStream in = StoreFiles.class.getResourceAsStream("/fixtures/upstream/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The website example stream with {@code metadata.generation} set to {@code generation}. */
    static byte[] metadata(long generation) {
        String text = TEMPLATE.replace("\"generation\": 1", "\"generation\": " + generation);
        if (text.equals(TEMPLATE) && generation != 1) {
            throw new IllegalStateException("fixture changed: no generation to replace");
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static Path file(Path root, ClaimKind kind, String claim, String request, String driver) {
        return root.resolve(kind.directory()).resolve(claim).resolve(request).resolve(driver + "-metadata.json");
    }

    /** Creates the file (and its directories) as the kubelet plugin does at prepare. */
    static void create(Path file, byte[] content) {
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code os.WriteFile} over an existing file: truncate, then write, same inode. */
    static void rewriteInPlace(Path file, byte[] content) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(content);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Temp file plus {@code rename(2)}: a new inode under the old name. */
    static void replaceByRename(Path file, byte[] content) {
        try {
            Path temp = file.resolveSibling("." + file.getFileName() + ".tmp");
            Files.write(temp, content);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static RequestEntry request(MetadataSnapshot snapshot, ClaimKind kind, String claim, String request) {
        ClaimSet set = snapshot.claims(kind);
        ClaimEntry entry = set == null ? null : set.claims().get(claim);
        return entry == null ? null : entry.requests().get(request);
    }

    static DriverEntry driver(MetadataSnapshot snapshot, ClaimKind kind, String claim, String request, String driver) {
        RequestEntry entry = request(snapshot, kind, claim, request);
        return entry == null ? null : entry.drivers().get(driver);
    }

    /**
     * {@code metadata.generation} of the driver's served body, decoded from the bytes an HTTP client would get;
     * {@code null} when the file is absent, {@code -1} when it is unavailable.
     */
    static Long generation(MetadataSnapshot snapshot, ClaimKind kind, String claim, String request, String driver) {
        DriverEntry entry = driver(snapshot, kind, claim, request, driver);
        if (entry == null) {
            return null;
        }
        if (!(entry.served() instanceof Served.Available available)) {
            return -1L;
        }
        return body(available).path("metadata").path("generation").asLong();
    }

    static JsonNode body(Served.Available available) {
        try {
            return JSON.readTree(available.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Polls {@code condition} every 5 ms until it holds, for at most {@code timeout}; fails naming
     * {@code what} otherwise. Returns how long it took.
     */
    static Duration await(Duration timeout, String what, Supplier<Boolean> condition) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        while (true) {
            if (condition.get()) {
                return Duration.ofNanos(System.nanoTime() - start);
            }
            if (System.nanoTime() - deadline > 0) {
                fail("not within " + timeout.toMillis() + " ms: " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted waiting for " + what);
            }
        }
    }
}
