package dev.dra.sidecar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The warm-up's sample goes the whole way a served file goes: it decodes, and every body of its snapshot encodes. */
class FirstScanWarmUpTest {

    @Test
    void theSampleDecodesAndEveryBodyOfItsSnapshotEncodes() throws Exception {
        // Both kinds' indexes, the claim's view, the request's merged body and its validation.
        assertEquals(5, FirstScanWarmUp.run());
    }
}
