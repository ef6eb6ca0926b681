package dev.dra.sidecar.store;

import static dev.dra.sidecar.store.StoreFiles.request;
import static dev.dra.sidecar.store.StoreOnFiles.BOUND;
import static dev.dra.sidecar.store.StoreOnFiles.start;
import static dev.dra.sidecar.testsupport.Eventually.awaitTrue;
import static dev.dra.sidecar.testsupport.MetadataFiles.create;
import static dev.dra.sidecar.testsupport.MetadataFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.decode.FailureCode;
import dev.dra.sidecar.decode.MetadataStreamDecoder;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.RequestEntry;
import dev.dra.sidecar.snapshot.Served;
import dev.dra.sidecar.store.file.HeldBudget;
import dev.dra.sidecar.store.file.HeldCharge;
import dev.dra.sidecar.testsupport.DeviceMetadataJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory bound on real files: a tree whose charge is past {@code dra.metadata.max-held} is served as far as it
 * fits, every other file answers {@code memory-bound-reached} with a detail that names the bound and what to raise,
 * and a file that goes away makes room for one that was refused.
 */
class MetadataStoreBoundTest {

    private static final int FILES = 5;

    @RegisterExtension
    final StoreErrorLog errorLog = new StoreErrorLog();

    @TempDir
    Path root;

    @Test
    void servesWhatFitsRefusesTheRestAndAdmitsARefusedFileWhenAnotherGoes() throws Exception {
        // One long string: a charge of more than twice a file's tracking, whatever the charges' constants.
        byte[] content = DeviceMetadataJson.forClaim("c").attributes("\"s\":{\"string\":\""
                + "x".repeat(2 * (int) HeldBudget.PER_TRACKED) + "\"}").json().getBytes(StandardCharsets.UTF_8);
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < FILES; i++) {
            files.add(create(file(root, ClaimKind.CLAIM, "c", "r" + i, "gpu.example.com"), content));
        }
        // Tracking takes at most half of the bound: all five are tracked, and what is left holds some of them.
        long bound = 2 * FILES * HeldBudget.PER_TRACKED;
        long charge = HeldCharge.of(MetadataStreamDecoder.decode(content, "test").object());
        int held = (int) ((bound - FILES * HeldBudget.PER_TRACKED) / charge);
        assertTrue(held > 0 && held < FILES - 1, "the bound holds some of the files: " + held);
        // One file gone frees its tracking and its charge: what is left holds this many of the other four.
        int heldAfter = (int) Math.min(FILES - 1, (bound - (FILES - 1) * HeldBudget.PER_TRACKED) / charge);
        try (MetadataStore store = start(TestStoreConfig.of(root, "max-held", String.valueOf(bound)))) {
            assertEquals(held, served(store.current()), () -> store.held().toString());
            List<RequestEntry> refused = refused(store.current());
            assertEquals(FILES - held, refused.size());
            Served.Unavailable refusal = (Served.Unavailable) refused.get(0).merged();
            assertTrue(refusal.detail().contains("memory bound of") && refusal.detail().contains("dra.metadata.max-held")
                    && refusal.detail().contains("memory limit"), refusal.detail());
            HeldBudget.View view = store.held();
            assertEquals(held, view.files());
            assertEquals(FILES - held, view.refused());
            assertEquals(0, view.untracked());
            assertEquals(bound, view.bound());
            assertTrue(view.heldBytes() <= bound);

            Path heldFile = files.stream().filter(f -> isServed(store.current(), f)).findFirst().orElseThrow();
            Files.delete(heldFile);
            awaitTrue(BOUND, () -> "refused files held once another is gone: " + heldAfter + " held, " + store.held(),
                    () -> served(store.current()) == heldAfter && refused(store.current()).size() == FILES - 1 - heldAfter
                            && store.held().refused() == FILES - 1 - heldAfter);
        }
    }

    @Test
    void aTreePastTheTrackingLimitCostsWhatItTracksAndTracksAFoundFileWhenAnotherGoes() throws Exception {
        int claims = 10;
        int trackable = 4;
        byte[] content = DeviceMetadataJson.forClaim("c").json().getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < claims; i++) {
            create(file(root, ClaimKind.CLAIM, "c" + i, "r", "gpu.example.com"), content);
        }
        // Tracking takes at most half of the bound: room for the bookkeeping of four files, not for ten.
        long bound = 2 * trackable * HeldBudget.PER_TRACKED;
        try (MetadataStore store = start(TestStoreConfig.of(root, "max-held", String.valueOf(bound)))) {
            HeldBudget.View view = store.held();
            assertEquals(claims - trackable, view.untracked(), view::toString);
            List<String> tracked = trackedClaims(store.current());
            assertEquals(trackable, tracked.size(), tracked::toString);
            // Watched: the root, resourceclaims, and the claim and request directory of each tracked file; none of
            // the directories that hold only files it could not track.
            assertEquals(2 + 2 * trackable, store.status().directoryWatches(), store.status()::toString);

            Files.delete(file(root, ClaimKind.CLAIM, tracked.get(0), "r", "gpu.example.com"));
            awaitTrue(BOUND, () -> "a file found but not tracked is tracked once another is gone: " + store.held(),
                    () -> store.held().untracked() == claims - trackable - 1
                            && trackedClaims(store.current()).size() == trackable
                            && !trackedClaims(store.current()).contains(tracked.get(0)));
        }
    }

    private static List<String> trackedClaims(MetadataSnapshot snapshot) {
        return List.copyOf(snapshot.claims(ClaimKind.CLAIM).claims().keySet());
    }

    private static int served(MetadataSnapshot snapshot) {
        return (int) snapshot.claims(ClaimKind.CLAIM).claims().get("c").requests().values().stream()
                .filter(r -> r.merged() instanceof Served.Available).count();
    }

    private static List<RequestEntry> refused(MetadataSnapshot snapshot) {
        return snapshot.claims(ClaimKind.CLAIM).claims().get("c").requests().values().stream()
                .filter(r -> r.merged() instanceof Served.Unavailable u && u.code() == FailureCode.MEMORY_BOUND_REACHED)
                .toList();
    }

    private static boolean isServed(MetadataSnapshot snapshot, Path file) {
        String name = file.getParent().getFileName().toString();
        return request(snapshot, ClaimKind.CLAIM, "c", name).merged() instanceof Served.Available;
    }
}
