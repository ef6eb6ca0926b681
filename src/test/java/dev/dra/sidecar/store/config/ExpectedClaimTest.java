package dev.dra.sidecar.store.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.snapshot.ClaimKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExpectedClaimTest {

    @Test
    void parsesBothKinds() {
        assertEquals(List.of(new ExpectedClaim(ClaimKind.CLAIM, "gpu-claim", "gpu"),
                        new ExpectedClaim(ClaimKind.TEMPLATE_CLAIM, "my-gpu", "gpu")),
                ExpectedClaim.parseAll(List.of("claims/gpu-claim/gpu", " template-claims/my-gpu/gpu ", "")));
        assertEquals("template-claims/my-gpu/gpu", ExpectedClaim.parse("template-claims/my-gpu/gpu").toString());
    }

    @Test
    void withoutARequestTheEntryIsTheWholeClaim() {
        assertEquals(List.of(new ExpectedClaim(ClaimKind.CLAIM, "gpu-claim", null),
                        new ExpectedClaim(ClaimKind.TEMPLATE_CLAIM, "my-gpu", null)),
                ExpectedClaim.parseAll(List.of("claims/gpu-claim", "template-claims/my-gpu")));
        assertEquals("claims/gpu-claim", ExpectedClaim.parse("claims/gpu-claim").toString());
    }

    @Test
    void rejectsWhatCanNeverMatchWithTheEntryAndTheForm() {
        assertMessage("gpu-claim/gpu", "entry 'gpu-claim/gpu' is invalid: it must have the form claims/<claim>[/<request>]");
        assertMessage("gpu-claim", "must have the form");
        assertMessage("claims/", "is not a DNS-1123 subdomain");
        assertMessage("resourceclaims/gpu-claim/gpu", "must have the form");
        assertMessage("claims/gpu-claim/gpu/extra", "must have the form");
        assertMessage("claims/GPU_claim/gpu", "the claim name 'GPU_claim' is not a DNS-1123 subdomain");
        assertMessage("template-claims/my-gpu/gpu.0", "the request name 'gpu.0' is not a DNS-1123 label");
        assertMessage("claims//gpu", "is not a DNS-1123 subdomain");
    }

    private static void assertMessage(String entry, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ExpectedClaim.parse(entry));
        assertTrue(e.getMessage().startsWith("dra.metadata.expected-claims (DRA_METADATA_EXPECTED_CLAIMS): "),
                e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
