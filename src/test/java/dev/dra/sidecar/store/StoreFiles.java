package dev.dra.sidecar.store;

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
import java.nio.charset.StandardCharsets;

/**
 * The store tests' metadata (the website example at any generation) and how a test reads what the store serves;
 * files are written with {@link dev.dra.sidecar.testsupport.MetadataFiles}.
 */
public final class StoreFiles {

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
    public static byte[] metadata(long generation) {
        String text = TEMPLATE.replace("\"generation\": 1", "\"generation\": " + generation);
        if (text.equals(TEMPLATE) && generation != 1) {
            throw new IllegalStateException("fixture changed: no generation to replace");
        }
        return text.getBytes(StandardCharsets.UTF_8);
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
}
