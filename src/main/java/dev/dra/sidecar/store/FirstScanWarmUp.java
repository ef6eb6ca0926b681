package dev.dra.sidecar.store;

import dev.dra.sidecar.decode.MetadataDecodeException;
import dev.dra.sidecar.decode.MetadataStreamDecoder;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.store.assembly.SnapshotBuilder;
import dev.dra.sidecar.store.file.TrackedFile;
import dev.dra.sidecar.store.source.MetadataFileRef;
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
 * Runs what the first scan runs, once, on a built-in metadata stream ({@value #SAMPLE}), on a daemon thread of its own
 * started as soon as the CDI container is up, while Quarkus goes on starting on the main thread: the decoder, and a
 * snapshot built from its object. The first scan then finds the classes it needs initialized and the shared mapper's
 * deserializers for the model built, work that would otherwise run on the main thread, on the start's critical
 * path, while the other core idles. Bodies are not encoded here: the serializers of representations a pod may never
 * ask for would be held for its whole life, and encoding beside the start competes with it for the CPU. What it
 * builds is dropped; it touches no state of the store. A failure is logged at DEBUG and changes nothing else.
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

    /** Decodes the sample and builds its snapshot, as the first scan does with a file. */
    static MetadataSnapshot run() throws MetadataDecodeException {
        TrackedFile file = new TrackedFile(new MetadataFileRef(ClaimKind.CLAIM, "warm-up", "warm-up",
                "warm-up.example.com", "warm-up.example.com-metadata.json", Path.of(SAMPLE)));
        file.readSucceeded(MetadataStreamDecoder.decode(sample(), SAMPLE), true);
        return SnapshotBuilder.build(0, List.of(file.input()));
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
