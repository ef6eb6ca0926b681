package dev.dra.sidecar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.MetadataSnapshot;
import dev.dra.sidecar.snapshot.RequestEntry;
import dev.dra.sidecar.snapshot.Served;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The warm-up's sample goes the whole way a served file goes: it decodes into a snapshot that serves it. */
class FirstScanWarmUpTest {

    @Test
    void theSampleDecodesIntoASnapshotThatServesItsDevice() throws Exception {
        MetadataSnapshot snapshot = FirstScanWarmUp.run();
        RequestEntry request = snapshot.claims(ClaimKind.CLAIM).claims().get("warm-up").requests().get("warm-up");
        Served.Available merged = assertInstanceOf(Served.Available.class, request.merged());
        String body = new String(merged.body(), StandardCharsets.UTF_8);
        assertEquals(1, request.devices().size(), body);
        assertTrue(body.contains("\"hardwareAddress\":\"02:42:c0:00:02:0a\"}}]}]}"), body);
    }
}
