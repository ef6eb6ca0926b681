package dev.dra.sidecar.store;

import dev.dra.sidecar.decode.MetadataDecodeException;
import dev.dra.sidecar.decode.MetadataStreamDecoder;
import dev.dra.sidecar.snapshot.ClaimEntry;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.ClaimSet;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.RequestEntry;
import dev.dra.sidecar.snapshot.Served;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Runs what the first scan and the first requests run, once, on a built-in metadata stream ({@value #SAMPLE}), on a
 * daemon thread of its own started as soon as the CDI container is up, while Quarkus goes on starting on the main
 * thread: the decoder, a snapshot built from its object, and every body of that snapshot encoded. The first scan
 * then finds the classes it needs initialized and the shared mapper's deserializers and serializers for the model
 * built, work that would otherwise run on the main thread, on the start's critical path, while the other core idles.
 * What it builds is dropped; it touches no state of the store. A failure is logged at DEBUG and changes nothing else.
 */
@Singleton
class FirstScanWarmUp {

    static final String SAMPLE = "warm-up-metadata.json";
    private static final Logger LOG = Logger.getLogger(FirstScanWarmUp.class);

    void start(@Observes @Initialized(ApplicationScoped.class) Object containerStarted) {
        Thread thread = new Thread(FirstScanWarmUp::runQuietly, "dra-metadata-warm-up");
        thread.setDaemon(true);
        thread.start();
    }

    private static void runQuietly() {
        try {
            run();
        } catch (Exception | LinkageError e) {
            LOG.debugf(e, "the first scan's warm-up failed (the first scan does that work itself)");
        }
    }

    /** Decodes the sample, builds its snapshot and encodes every body of it; returns how many bodies it encoded. */
    static int run() throws MetadataDecodeException {
        TrackedFile file = new TrackedFile(new MetadataFileRef(ClaimKind.CLAIM, "warm-up", "warm-up",
                "warm-up.example.com", "warm-up.example.com-metadata.json", Path.of(SAMPLE)));
        file.readSucceeded(MetadataStreamDecoder.decode(sample(), SAMPLE), true);
        MetadataSnapshot snapshot = SnapshotBuilder.build(0, List.of(file));
        int encoded = 0;
        for (ClaimKind kind : ClaimKind.values()) {
            ClaimSet set = snapshot.claims(kind);
            encoded += encode(set.index());
            for (ClaimEntry claim : set.claims().values()) {
                encoded += encode(claim.served());
                for (RequestEntry request : claim.requests().values()) {
                    encoded += encode(request.merged()) + encode(request.validation());
                }
            }
        }
        return encoded;
    }

    private static int encode(Served served) {
        return served instanceof Served.Available available && available.body().length > 0 ? 1 : 0;
    }

    private static byte[] sample() {
        try (InputStream in = FirstScanWarmUp.class.getResourceAsStream(SAMPLE)) {
            if (in == null) {
                throw new IllegalStateException(SAMPLE + " is missing from the application");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
