package dev.dra.sidecar.decode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.decode.gojson.GoCompatibleJson;
import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.FileTrees;
import dev.dra.sidecar.testsupport.GoOracle;
import dev.dra.sidecar.testsupport.PackagedSidecar;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Batches of generated claims written into the sidecar's root, each request with the files of one to three
 * drivers (most decode, some are broken), then read through the sidecar's API and by the Go reader from the same
 * files: the merged request, every driver's object, the served validation of every file and one attribute.
 */
final class RequestTrees {

    private static final int REQUESTS_PER_BATCH = 40;
    private static final ObjectMapper JSON = GoOracle.JSON;

    private final RandomMetadata random;
    private final StreamMutations mutations;
    private final Path root;
    private final PackagedSidecar sidecar;
    private final GoVerdicts verdicts;
    private final GoOracle oracle;

    RequestTrees(Random random, Path root, PackagedSidecar sidecar, GoVerdicts verdicts, GoOracle oracle) {
        this.random = new RandomMetadata(random);
        this.mutations = new StreamMutations(this.random);
        this.root = root;
        this.sidecar = sidecar;
        this.verdicts = verdicts;
        this.oracle = oracle;
    }

    /** One request of a claim of {@code kind} ({@code claims} or {@code template-claims}), with its files' bytes. */
    private record Request(String kind, String claim, String request, Map<String, byte[]> files) {
        String path() {
            return "/" + kind + "/" + claim + "/" + request;
        }
    }

    /**
     * Writes one batch, waits until the sidecar lists it, compares every read and removes the batch again (so that
     * a long run keeps one batch in the sidecar's pod-sized heap, not all of them); how many comparisons ran.
     */
    int runBatch(int batch, OracleDifferences differences, int firstCase) throws IOException {
        List<Request> requests = new ArrayList<>();
        for (int i = 0; i < REQUESTS_PER_BATCH; i++) {
            requests.add(write(batch, i));
        }
        for (String kind : List.of("claims", "template-claims")) {
            Set<String> expected = new HashSet<>();
            requests.stream().filter(r -> r.kind.equals(kind)).forEach(r -> expected.add(r.claim));
            Eventually.awaitTrue(Duration.ofSeconds(60), "the sidecar lists batch " + batch + " of " + kind,
                    () -> listed(kind).containsAll(expected));
        }
        int cases = firstCase;
        for (Request request : requests) {
            cases += compare(request, differences, cases);
        }
        for (Request request : requests) {
            FileTrees.deleteTree(root.resolve(request.kind.equals("claims") ? "resourceclaims" : "resourceclaimtemplates")
                    .resolve(request.claim));
        }
        return cases - firstCase;
    }

    private Request write(int batch, int index) throws IOException {
        String kind = random.chance(50) ? "claims" : "template-claims";
        String claim = "b" + batch + "-c" + index;
        String request = random.label();
        Map<String, byte[]> files = new LinkedHashMap<>();
        for (int n = 1 + random.random.nextInt(3); n > 0; n--) {
            byte[] stream = random.stream(random.object()).bytes();
            files.put(random.driver(), switch (random.random.nextInt(8)) {
                case 0 -> random.mutate(stream);
                case 1 -> mutations.mutate(GoCompatibleJson.mapper().writeValueAsString(random.object()));
                default -> stream;
            });
        }
        Path staging = Files.createDirectories(root.resolveSibling(root.getFileName() + "-staging").resolve(claim));
        Path requestDir = Files.createDirectories(staging.resolve(request));
        // written long ago: the sidecar reads a settled file at once instead of waiting out a possible writer
        FileTime settled = FileTime.from(Instant.now().minusSeconds(3600));
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Path path = requestDir.resolve(file.getKey() + "-metadata.json");
            Files.write(path, file.getValue());
            Files.setLastModifiedTime(path, settled);
        }
        Files.move(staging, root.resolve(kind.equals("claims") ? "resourceclaims" : "resourceclaimtemplates").resolve(claim));
        return new Request(kind, claim, request, files);
    }

    private Set<String> listed(String kind) {
        Set<String> names = new HashSet<>();
        try {
            get("/" + kind).body.path("claims").forEach(c -> names.add(c.path("name").asText()));
        } catch (IOException e) {
            // not answering yet: try again
        }
        return names;
    }

    private int compare(Request request, OracleDifferences differences, int firstCase) throws IOException {
        int cases = firstCase;
        String rootText = root.toString();
        JsonNode goMerged = oracle.read(request.kind, request.claim, request.request, null);
        Answer merged = get(request.path());
        report(differences, cases++, request, "GET " + request.path(), verdicts.merged(goMerged, merged.status, merged.body, rootText));
        for (String driver : request.files.keySet()) {
            String path = request.path() + "/drivers/" + driver;
            Answer answer = get(path);
            report(differences, cases++, request, "GET " + path,
                    verdicts.served(oracle.read(request.kind, request.claim, request.request, driver), answer.status, answer.body, rootText));
        }
        Answer validation = get(request.path() + "/validation");
        for (Map.Entry<String, byte[]> file : request.files.entrySet()) {
            report(differences, cases++, request, "GET " + request.path() + "/validation, " + file.getKey(),
                    servedValidation(oracle.decode(file.getValue()), validation, file.getKey() + "-metadata.json"));
        }
        if (goMerged.path("ok").asBoolean()) {
            String attribute = attribute(request, goMerged.path("object"));
            if (attribute != null) {
                report(differences, cases++, request, "attribute", attribute);
            }
        }
        return cases - firstCase;
    }

    private static String servedValidation(JsonNode go, Answer validation, String fileName) {
        if (validation.status != 200) {
            return "validation answered " + validation.status + ": " + validation.body;
        }
        for (JsonNode entry : validation.body.path("drivers")) {
            if (entry.path("file").asText().endsWith("/" + fileName)) {
                if (!go.path("ok").asBoolean()) {
                    String code = GoVerdicts.code(go.path("error").asText());
                    return code.equals(entry.path("error").path("code").asText()) ? null
                            : "validation of a file Go fails with " + code + " (" + go.path("error") + "): " + entry;
                }
                if (entry.has("error")) {
                    return "Go decodes the file, its served validation has an error: " + entry;
                }
                return GoVerdicts.violationsOf(go, entry.path("violations"));
            }
        }
        return "validation does not list " + fileName + ": " + validation.body;
    }

    /** One attribute of a device of Go's merged object, read through the attribute resource. */
    private String attribute(Request request, JsonNode goObject) throws IOException {
        List<JsonNode> devices = new ArrayList<>();
        goObject.path("requests").forEach(r -> r.path("devices").forEach(devices::add));
        List<JsonNode> withAttributes = devices.stream().filter(d -> d.path("attributes").size() > 0
                && addressable(d.path("name").asText()) && !d.path("name").asText().contains("/")).toList();
        if (withAttributes.isEmpty()) {
            return null;
        }
        JsonNode device = random.pick(withAttributes);
        List<String> keys = new ArrayList<>();
        device.path("attributes").fieldNames().forEachRemaining(k -> {
            if (addressable(k)) {
                keys.add(k);
            }
        });
        if (keys.isEmpty()) {
            return null;
        }
        String key = random.pick(keys);
        String name = device.path("name").asText();
        long sameName = devices.stream().filter(d -> d.path("name").asText().equals(name)).count();
        Answer answer = get(request.path() + "/devices/" + encodePath(name) + "/attributes/" + encodePath(key));
        if (sameName > 1) {
            return answer.status == 409 && answer.body.path("code").asText().equals("ambiguous-device") ? null
                    : "device " + name + " is on " + sameName + " devices, the sidecar answers " + answer.status + " " + answer.body;
        }
        JsonNode expected = device.path("attributes").path(key);
        return answer.status == 200 && answer.body.equals(expected) ? null
                : "attribute " + key + " of " + name + ": Go " + expected + ", the sidecar " + answer.status + " " + answer.body;
    }

    /** Whether an attribute name can be put in a path as it is: no control characters, no empty or dot segments. */
    private static boolean addressable(String key) {
        if (key.isEmpty() || key.length() > 512 || key.chars().anyMatch(Character::isISOControl)) {
            return false;
        }
        for (String segment : key.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }

    private static String encodePath(String key) {
        List<String> segments = new ArrayList<>();
        for (String segment : key.split("/", -1)) {
            segments.add(URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return String.join("/", segments);
    }

    private void report(OracleDifferences differences, int caseNumber, Request request, String what,
            String difference) {
        if (difference != null) {
            StringBuilder files = new StringBuilder();
            request.files.forEach((driver, bytes) -> files.append("\n  ").append(driver).append(": ")
                    .append(java.util.Base64.getEncoder().encodeToString(bytes)));
            differences.add(caseNumber, what + "\n  " + difference + "\n  files (base64):" + files);
        }
    }

    private record Answer(int status, JsonNode body) {}

    private Answer get(String path) throws IOException {
        HttpResponse<String> response = sidecar.get(path);
        String body = response.body();
        return new Answer(response.statusCode(), body.isEmpty() ? JSON.nullNode() : JSON.readTree(body));
    }
}
