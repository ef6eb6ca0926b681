package dev.dra.sidecar.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.model.ObjectMeta;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The decoder half of the conformance expectations: for every request or driver GET of
 * {@code conformance/expectations.json}, decoding (and for request paths merging) the files of the matching
 * directory gives the expected outcome. Attribute, 404 and 400 entries are HTTP-level and covered by the
 * API's tests.
 */
class ConformanceExpectationsTest {

    private static final Path CONFORMANCE = TestStreams.fixtures().resolve("conformance");
    private static final Pattern GET = Pattern.compile("/(claims|template-claims)/([^/]+)/([^/]+)(?:/drivers/([^/]+))?");
    private static final ObjectMapper JSON = GoCompatibleJson.mapper();

    /** What one read produced: the object and the apiVersion of each file, or the failure. */
    private record Outcome(DeviceMetadata object, List<String> sourceVersions, MetadataDecodeException failure) {}

    private static List<JsonNode> entries() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        new ObjectMapper().readTree(CONFORMANCE.resolve("expectations.json").toFile()).forEach(out::add);
        return out;
    }

    /** The entries this class checks; everything else is an HTTP-level expectation. */
    private static boolean isDecoderLevel(JsonNode entry) {
        int status = entry.get("status").asInt();
        return status != 404 && status != 400 && GET.matcher(entry.get("get").asText()).matches();
    }

    @Test
    void theDecoderLevelEntriesAreTheOnesExpected() throws IOException {
        List<String> ids = entries().stream().filter(ConformanceExpectationsTest::isDecoderLevel)
                .map(e -> e.get("id").asText()).toList();
        // if expectations.json grows, this list must be looked at again rather than silently skipping entries
        assertEquals(List.of("upstream-head", "upstream-head-driver", "upstream-v1-36", "skip-unknown-version",
                "template-claim", "kep-example", "empty-file", "blank-file", "not-json", "truncated", "empty-object",
                "known-version-no-kind", "no-api-version", "known-version-bad-type", "only-unknown",
                "unknown-no-kind", "trailing-junk", "unknown-then-bad", "merge-drivers", "merge-one-driver",
                "merge-one-bad", "merge-one-bad-good-driver", "null-zero-values", "fieldsv1-as-written",
                "bad-timestamp", "repeated-keys", "oracle-kind-quoted", "oracle-kind-type", "oracle-not-object",
                "oracle-bom", "oracle-scheme", "oracle-core-version", "oracle-kind-go-quoted", "oracle-meta-kind",
                "oracle-meta-kind-field", "oracle-internal", "oracle-yaml-escape", "oracle-yaml-number",
                "oracle-null-other-case", "oracle-repeated-wrong-type", "oracle-key-fold-dotless",
                "oracle-key-fold-kelvin", "oracle-kind-unicode-15", "oracle-cut-surrogate"), ids);
        List<String> skipped = entries().stream().filter(e -> !isDecoderLevel(e)).map(e -> e.get("id").asText()).toList();
        assertEquals(List.of("template-attr-json", "template-attr-text", "null-zero-attribute-text", "oracle-objectmeta-validation",
                "oracle-names-validation", "missing-claim",
                "missing-request", "bad-name", "dotdot"), skipped);
    }

    @TestFactory
    Stream<DynamicTest> expectations() throws IOException {
        return entries().stream().filter(ConformanceExpectationsTest::isDecoderLevel)
                .map(e -> DynamicTest.dynamicTest(e.get("id").asText() + " " + e.get("get").asText(), () -> check(e)));
    }

    private static void check(JsonNode entry) throws IOException {
        Matcher m = GET.matcher(entry.get("get").asText());
        assertTrue(m.matches());
        String kindDir = m.group(1).equals("claims") ? "resourceclaims" : "resourceclaimtemplates";
        Path dir = CONFORMANCE.resolve("root").resolve(kindDir).resolve(m.group(2)).resolve(m.group(3));
        boolean singleDriver = m.group(4) != null;
        Outcome outcome = singleDriver ? readDriver(dir, m.group(4)) : readRequest(dir);
        int status = entry.get("status").asInt();
        if (status / 100 == 2) {
            assertSuccess(entry, outcome, singleDriver, dir);
        } else {
            assertNotNull(outcome.failure(), () -> "expected " + status + " but decoded " + outcome.object());
            assertEquals(entry.get("code").asText(), outcome.failure().code().code(), outcome.failure()::getMessage);
            List<String> parts = new ArrayList<>();
            if (entry.has("detailContainsInOrder")) {
                entry.get("detailContainsInOrder").forEach(p -> parts.add(p.asText()));
            }
            TestStreams.assertContainsInOrder(outcome.failure().getMessage(), parts.toArray(String[]::new));
        }
    }

    private static void assertSuccess(JsonNode entry, Outcome outcome, boolean singleDriver, Path dir)
            throws IOException {
        if (outcome.failure() != null) {
            fail("expected success, got " + outcome.failure().code().code() + ": " + outcome.failure().getMessage());
        }
        DeviceMetadata dm = outcome.object();
        TestStreams.assertJsonEquals(entry.get("requests"), JSON.valueToTree(dm.requests()));
        JsonNode podClaimName = entry.get("podClaimName");
        if (podClaimName == null || podClaimName instanceof NullNode) {
            assertNull(dm.podClaimName());
        } else {
            assertEquals(podClaimName.asText(), dm.podClaimName());
        }
        assertEquals(entry.get("sourceVersion").asText(), String.join(", ", outcome.sourceVersions()));
        if (entry.has("metadata")) {
            TestStreams.assertJsonEquals(entry.get("metadata"), encoded(dm.metadata()));
        }
        if (entry.has("bodyContains")) {
            String body = JSON.writeValueAsString(dm);
            entry.get("bodyContains").forEach(part -> assertTrue(body.contains(part.asText()),
                    () -> "served body lacks " + part.asText() + ": " + body));
        }
        if (!singleDriver) {
            // merged: the claim identity only (all files agree in every fixture directory), never a generation
            assertNull(dm.metadata().generation());
            assertEquals(DeviceMetadata.V1BETA1, dm.apiVersion());
            assertEquals(ObjectMeta.identity(dm.metadata().name(), dm.metadata().namespace(), dm.metadata().uid()),
                    dm.metadata());
            assertNotNull(dm.metadata().name());
        } else {
            assertFalse(dm.metadata() == null, "a driver's own object keeps its metadata");
        }
    }

    /** As served: through the encoder, so that raw values (fieldsV1) are compared as the JSON they are. */
    private static JsonNode encoded(Object value) {
        try {
            return new ObjectMapper().readTree(JSON.writeValueAsString(value));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Outcome readDriver(Path dir, String driver) {
        Path file = dir.resolve(driver + "-metadata.json");
        try {
            DecodedMetadata d = MetadataStreamDecoder.decode(TestStreams.read(file), file.toString());
            return new Outcome(d.object(), List.of(d.sourceVersion()), null);
        } catch (MetadataDecodeException e) {
            return new Outcome(null, null, e);
        }
    }

    /** Go's readRequestDir: glob {@code *-metadata.json}, byte order, first failure fails the whole read. */
    private static Outcome readRequest(Path dir) throws IOException {
        List<String> names;
        try (Stream<Path> files = Files.list(dir)) {
            names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith("-metadata.json"))
                    .sorted(RequestMerger.BYTE_ORDER).toList();
        }
        assertFalse(names.isEmpty(), "no metadata files in " + dir);
        Map<String, DeviceMetadata> decoded = new LinkedHashMap<>();
        List<String> versions = new ArrayList<>();
        for (String name : names) {
            try {
                DecodedMetadata d = MetadataStreamDecoder.decode(TestStreams.read(dir.resolve(name)), dir.resolve(name).toString());
                decoded.put(name, d.object());
                versions.add(d.sourceVersion());
            } catch (MetadataDecodeException e) {
                return new Outcome(null, null, e);
            }
        }
        return new Outcome(RequestMerger.merge(decoded), versions, null);
    }
}
