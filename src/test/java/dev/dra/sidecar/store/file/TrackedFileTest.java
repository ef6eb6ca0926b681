package dev.dra.sidecar.store.file;

import static dev.dra.sidecar.store.StoreFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.decode.DecodedMetadata;
import dev.dra.sidecar.decode.FailureCode;
import dev.dra.sidecar.decode.MetadataDecodeException;
import dev.dra.sidecar.decode.MetadataStreamDecoder;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.FileState;
import dev.dra.sidecar.store.source.MetadataFileRef;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The rules of a file's states, one transition at a time, with objects decoded from real streams. */
class TrackedFileTest {

    private static final Duration MIN = Duration.ofMillis(10);
    private static final Duration MAX = Duration.ofMillis(35);

    private final TrackedFile file = new TrackedFile(new MetadataFileRef(ClaimKind.CLAIM, "c", "r", "d",
            "d-metadata.json", Path.of("/root/resourceclaims/c/r/d-metadata.json")));

    private static DecodedMetadata decoded(long generation) throws MetadataDecodeException {
        return MetadataStreamDecoder.decode(metadata(generation), "test");
    }

    private static MetadataDecodeException torn() {
        return new MetadataDecodeException(FailureCode.MALFORMED_STREAM, "cut short");
    }

    private static MetadataDecodeException empty() {
        return new MetadataDecodeException(FailureCode.NO_METADATA_OBJECTS, "empty");
    }

    /** What is left of the settle window of a file modified just before the read. */
    private static final long SETTLING = 80;

    @Test
    void aFailureBeforeAnyGoodReadIsServedAndRetriedWithADoublingCappedBackoff() {
        assertFalse(file.wasRead());
        assertTrue(file.readFailed(torn(), 0, 0, MIN, MAX));
        assertEquals(FileState.FAILED, file.state());
        assertEquals(MIN.toNanos(), file.checkAtNanos);
        assertTrue(file.readRequested, "a retry reads even if the fingerprint did not change");
        file.checked();
        assertFalse(file.readFailed(torn(), 0, 0, MIN, MAX), "the same failure again: nothing new for readers");
        assertEquals(2 * MIN.toNanos(), file.checkAtNanos);
        file.checked();
        file.readFailed(torn(), 0, 0, MIN, MAX);
        assertEquals(MAX.toNanos(), file.checkAtNanos, "capped");
    }

    @Test
    void aFailureAfterAGoodReadKeepsServingItStaleAndAGoodReadClearsIt() throws Exception {
        assertTrue(file.readSucceeded(decoded(1), false));
        assertEquals(FileState.OK, file.state());
        assertNull(file.staleReason());
        assertFalse(file.readSucceeded(decoded(1), false), "the same object again: nothing new for readers");

        assertTrue(file.readFailed(torn(), 0, 0, MIN, MAX));
        assertEquals(FileState.STALE, file.state());
        assertEquals(1L, file.good().object().metadata().generation());
        assertEquals("malformed-stream: cut short", file.staleReason());

        assertTrue(file.readSucceeded(decoded(2), false));
        assertEquals(FileState.OK, file.state());
        assertEquals(2L, file.good().object().metadata().generation());
        file.checked();
        file.readFailed(torn(), 0, 0, MIN, MAX);
        assertEquals(MIN.toNanos(), file.checkAtNanos, "a good read resets the backoff");
    }

    @Test
    void anEmptyOrCutShortReadOfAFileBeingWrittenChangesNothingAndIsReadAgainOnceItSettles() throws Exception {
        file.readSucceeded(decoded(1), false);
        file.checked();
        assertFalse(file.readFailed(empty(), 100, SETTLING, MIN, MAX), "truncated, not written yet: nothing new");
        assertEquals(FileState.OK, file.state());
        assertNull(file.staleReason());
        assertEquals(100 + SETTLING, file.checkAtNanos, "read again when the file has settled");
        assertTrue(file.readRequested);
        assertFalse(file.readFailed(torn(), 120, SETTLING, MIN, MAX), "half written: nothing new");
        assertFalse(file.readSucceeded(decoded(1), false), "written: the same object, nothing to publish");
        assertEquals(FileState.OK, file.state());

        file.checked();
        assertTrue(file.readFailed(empty(), 300, 0, MIN, MAX), "still empty once settled: stale");
        assertEquals(FileState.STALE, file.state());
        assertEquals("no-metadata-objects: empty", file.staleReason());
        assertEquals(1L, file.good().object().metadata().generation());
        assertEquals(300 + MIN.toNanos(), file.checkAtNanos, "retried with the backoff");
        assertFalse(file.readFailed(torn(), 400, SETTLING, MIN, MAX), "being written again: stays as it is");
        assertEquals("no-metadata-objects: empty", file.staleReason());
    }

    @Test
    void aWriteInProgressCannotExplainOtherFailuresNorHideTheOnlyOneThereIs() throws Exception {
        assertTrue(file.readFailed(empty(), 0, SETTLING, MIN, MAX), "nothing better to serve than the failure");
        assertEquals(FileState.FAILED, file.state());

        file.readSucceeded(decoded(1), false);
        assertTrue(file.readFailed(new MetadataDecodeException(FailureCode.UNREADABLE, "permission denied"), 0,
                SETTLING, MIN, MAX), "a write leaves a file empty or cut short, never unreadable");
        assertEquals("unreadable: permission denied", file.staleReason());
        file.readSucceeded(decoded(1), false);
        assertTrue(file.readFailed(new MetadataDecodeException(FailureCode.INVALID_OBJECT, "no devices"), 0,
                SETTLING, MIN, MAX));
        assertEquals(FileState.STALE, file.state());
    }

    @Test
    void aDetachedFileServesItsLastObjectUntilItLeadsToALiveFileAgain() throws Exception {
        assertFalse(file.detached(), "nothing to serve yet: the failure (or nothing) stays");
        file.readSucceeded(decoded(3), false);
        file.checkAt(5, true);
        assertTrue(file.detached());
        assertEquals(FileState.DETACHED, file.state());
        assertFalse(file.checkPending, "nothing can change behind the mount: no read is due");
        assertTrue(file.staleReason().startsWith("detached: /root/resourceclaims/c/r/d-metadata.json: replaced on "
                + "the host by a rename"), file.staleReason());
        assertTrue(file.staleReason().contains("restart"), file.staleReason());
        assertFalse(file.detached(), "once");
        assertEquals(3L, assertInstanceOf(TrackedFile.Detached.class, file.served()).good().object().metadata()
                .generation());

        assertTrue(file.readSucceeded(decoded(4), false), "the path leads to a live file again");
        assertEquals(FileState.OK, file.state());
    }
}
