package dev.dra.sidecar.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dra.sidecar.testsupport.DeviceMetadataJson;
import dev.dra.sidecar.testsupport.MetadataFiles;
import dev.dra.sidecar.testsupport.PackagedSidecar;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hostile HTTP input against the packaged sidecar, over raw sockets so that nothing is normalised on the way:
 * every answer is a fitting 4xx (or a 200 for what is a harmless spelling of a real resource), never a 5xx, and
 * never carries a byte of the canary metadata file that sits next to the root, outside it.
 */
class HostileHttpIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MARKER = "CANARY-" + UUID.randomUUID();
    private static final Set<Integer> REJECTED = Set.of(400, 404, 405, 413, 414, 431);

    static Path work;
    static PackagedSidecar sidecar;

    /** One hostile request and what may answer it. */
    record Case(String name, byte[] request, Set<Integer> allowed, boolean appAnswers) {}

    @BeforeAll
    static void start() throws IOException {
        work = Files.createTempDirectory("dra-hostile");
        Path root = work.resolve("root");
        Path ok = MetadataFiles.create(root.resolve("resourceclaims/ok/gpu/gpu.example.com-metadata.json"),
                DeviceMetadataJson.forClaim("ok").attributes("\"model\":{\"string\":\"fine\"}").json());
        // The canary: a valid metadata tree right next to the root, and a plain file; no answer may show either.
        String canary = DeviceMetadataJson.forClaim(MARKER.toLowerCase()).request("y").driver("z").pool(MARKER)
                .device(MARKER).attributes("\"m\":{\"string\":\"" + MARKER + "\"}").json();
        for (String dir : List.of("outside", "root-outside", "root/../outside2")) {
            MetadataFiles.create(work.resolve(dir).resolve("resourceclaims/x/y/z-metadata.json"), canary);
        }
        Files.writeString(work.resolve("secret.txt"), MARKER);
        Files.writeString(work.resolve("z-metadata.json"), canary);
        // A symbolic link inside the root that leads out of it: the scanner must not follow it.
        Files.createSymbolicLink(root.resolve("resourceclaims/x"), work.resolve("outside/resourceclaims/x"));
        Files.createSymbolicLink(ok.getParent().resolve("z-metadata.json"), work.resolve("z-metadata.json"));
        sidecar = PackagedSidecar.start("hostile", root, List.of(), List.of(), Map.of());
    }

    @AfterAll
    static void stop() {
        if (sidecar != null) {
            sidecar.close();
        }
    }

    private static byte[] get(String target, String... headers) {
        return request("GET", target, null, headers);
    }

    private static byte[] request(String method, String target, byte[] body, String... headers) {
        StringBuilder head = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        boolean host = false;
        for (String h : headers) {
            head.append(h).append("\r\n");
            host |= h.regionMatches(true, 0, "Host:", 0, 5);
        }
        if (!host) {
            head.append("Host: localhost\r\n");
        }
        head.append("Connection: close\r\n");
        if (body != null) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        if (body != null) {
            out.writeBytes(body);
        }
        return out.toByteArray();
    }

    private static Set<Integer> or(Set<Integer> base, Integer... more) {
        Set<Integer> all = new java.util.HashSet<>(base);
        all.addAll(List.of(more));
        return all;
    }

    static List<Case> corpus() {
        List<Case> cases = new ArrayList<>();
        // Path traversal, every spelling. A spelling that the server normalises to a real resource may answer 200.
        String[] traversal = {
            "/claims/../../outside/resourceclaims/x/y", "/claims/../../../outside", "/claims/%2e%2e/%2e%2e/outside",
            "/claims/%2E%2E/%2E%2E/etc/passwd", "/claims/..%2F..%2Foutside%2Fresourceclaims%2Fx/y",
            "/claims/x%2F..%2F..%2F..%2Foutside/y", "/claims/x/y", "/claims/x/y/drivers/z", "/claims/x",
            "/claims/ok/gpu/drivers/z", "/claims/..%5C..%5Coutside/y", "/claims/%5C..%5C..%5Coutside",
            "/claims/ok/gpu/drivers/..%2F..%2F..%2F..%2F..%2Foutside%2Fresourceclaims%2Fx%2Fy%2Fz",
            "/claims/ok/gpu/drivers/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fsecret.txt", "/claims/ok/gpu%00",
            "/claims/ok%00/gpu", "/claims/ok/gpu/drivers/gpu.example.com%00.json", "/claims/%00",
            "/claims/%c0%ae%c0%ae/%c0%ae%c0%ae/outside", "/claims/%c0%ae%c0%ae%c0%af%c0%ae%c0%ae%c0%afoutside/y",
            "/claims/%e0%80%ae%e0%80%ae/x", "/claims/%252e%252e/%252e%252e/outside",
            "/claims/ok/gpu/devices/gpu-0/attributes/../../../../../../outside",
            "/claims/ok/gpu/devices/gpu-0/attributes/..%2F..%2F..%2F..%2Fsecret.txt",
            "/claims/ok/gpu/devices/..%2F..%2F..%2Fx/attributes/m", "/claims/ok/gpu/devices/gpu-0/attributes/%00",
            "/template-claims/../claims/ok", "/template-claims/..%2F..%2Foutside/y", "/%2e%2e/%2e%2e/outside",
            "/..", "/../secret.txt", "/claims/..", "/claims/.", "/claims/./ok/gpu", "//claims//ok//gpu",
            "/claims/ok/gpu/drivers/%2e%2e", "/claims/ok/./../ok/gpu", "/claims;/ok", "/claims/ok;x=..%2f/gpu",
            "/claims/ok/gpu?driver=../../outside", "/claims/ok/gpu/devices/gpu-0/attributes/m?driver=..%2F..&pool=%00",
            "/claims/%ff%fe/x", "/claims/%u002e%u002e/x", "/claims/%", "/claims/%zz", "/claims/ok/gpu%2f..%2f..",
            "http://127.0.0.1/claims/../../outside", "/claims/ok/gpu/drivers/GPU.EXAMPLE.COM",
            "/claims/\\..\\..\\outside\\y", "/q/../claims/x/y", "/q/%2e%2e/claims/x", "/validate/../claims/x/y",
        };
        // Malformed percent-encodings and backslashes fail URI decoding in the framework, before the application.
        Set<String> undecodable = Set.of("/claims/%u002e%u002e/x", "/claims/%", "/claims/%zz", "/claims/\\..\\..\\outside\\y");
        for (String t : traversal) {
            cases.add(new Case("traversal " + t, get(t), or(REJECTED, 200), !undecodable.contains(t)));
        }
        // Over-long names and paths; Vert.x refuses a request line over 4 KiB itself (414).
        cases.add(new Case("claim 300 chars", get("/claims/" + "a".repeat(300)), Set.of(400), true));
        cases.add(new Case("claim 254 chars", get("/claims/" + "a".repeat(254) + "/gpu"), Set.of(400), true));
        cases.add(new Case("request 64 chars", get("/claims/ok/" + "b".repeat(64)), Set.of(400), true));
        cases.add(new Case("driver 64 chars", get("/claims/ok/gpu/drivers/" + "c".repeat(64)), Set.of(400), true));
        cases.add(new Case("device 600 chars", get("/claims/ok/gpu/devices/" + "d".repeat(600) + "/attributes/m"),
                Set.of(400), true));
        cases.add(new Case("attribute 3,000 chars", get("/claims/ok/gpu/devices/gpu-0/attributes/" + "e/".repeat(1500)),
                Set.of(400), true));
        cases.add(new Case("path 10 KB", get("/claims/" + "a".repeat(10_000)), Set.of(400, 414), false));
        cases.add(new Case("path 100 KB of ../", get("/claims/" + "../".repeat(34_000)), Set.of(400, 414), false));
        cases.add(new Case("query 10 KB", get("/claims?x=" + "q".repeat(10_000)), Set.of(400, 414), false));
        // Odd methods: the API is read-only but for POST /validate.
        for (String method : List.of("PUT", "DELETE", "PATCH", "POST", "TRACE", "FOO", "PROPFIND")) {
            for (String t : List.of("/claims", "/claims/ok/gpu", "/claims/ok/gpu/drivers/gpu.example.com")) {
                cases.add(new Case(method + " " + t, request(method, t, "{}".getBytes(StandardCharsets.UTF_8)),
                        Set.of(400, 405, 415), true));
            }
        }
        cases.add(new Case("GET /validate", get("/validate"), Set.of(405), true));
        cases.add(new Case("DELETE /validate", request("DELETE", "/validate", null), Set.of(405), true));
        cases.add(new Case("OPTIONS /claims", request("OPTIONS", "/claims", null), Set.of(200, 204, 405), true));
        cases.add(new Case("OPTIONS *", request("OPTIONS", "*", null), Set.of(400, 404, 405), false));
        cases.add(new Case("CONNECT", request("CONNECT", "127.0.0.1:22", null), Set.of(400, 404, 405), false));
        cases.add(new Case("CONNECT path", request("CONNECT", "/claims/ok", null), Set.of(400, 404, 405), false));
        // Huge and odd headers.
        cases.add(new Case("100 KB header", get("/claims", "X-Big: " + "h".repeat(100_000)), Set.of(400, 431), false));
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 2_000; i++) {
            many.append(i == 0 ? "" : "\r\n").append("X-H").append(i).append(": v");
        }
        cases.add(new Case("2,000 headers", get("/claims", many.toString()), or(Set.of(400, 431), 200), false));
        cases.add(new Case("100 KB If-None-Match", get("/claims/ok/gpu", "If-None-Match: " + "\"x\",".repeat(25_000)),
                Set.of(400, 431), false));
        cases.add(new Case("7 KB If-None-Match", get("/claims/ok/gpu", "If-None-Match: " + "\"x\",".repeat(1_700)),
                Set.of(200, 400, 431), false));
        cases.add(new Case("Accept junk", get("/claims/ok/gpu", "Accept: ;;;/,,,*/*;q=abc"), Set.of(200, 400, 406), true));
        cases.add(new Case("Accept image", get("/claims/ok/gpu", "Accept: image/png"), Set.of(406), true));
        // Long-poll parameters.
        for (String timeout : List.of("-1", "0", "301", "1e3", "abc", "99999999999999999999999", "%20",
                "5.5", "0x10", "%00", "1%00")) {
            cases.add(new Case("timeoutSeconds=" + timeout,
                    get("/claims/ok/gpu?waitForChange=true&lastEtag=%22x%22&timeoutSeconds=" + timeout), Set.of(400), true));
        }
        // An empty value is taken as absent (the default timeout); with an old lastEtag that answers at once.
        cases.add(new Case("timeoutSeconds=", get("/claims/ok/gpu?waitForChange=true&lastEtag=%22x%22&timeoutSeconds="),
                Set.of(200, 400), true));
        cases.add(new Case("waitForChange=maybe", get("/claims/ok/gpu?waitForChange=maybe"), Set.of(400), true));
        cases.add(new Case("lastEtag 3 KB", get("/claims/ok/gpu?waitForChange=true&timeoutSeconds=1&lastEtag=" + "e".repeat(3_000)),
                Set.of(200), true));
        // Host: only loopback names (DNS rebinding). Vert.x fails a Host whose port is not a number, and an HTTP/1.1
        // request without one, before any handler runs: still invalid-host.
        for (String host : List.of("Host: localhost:junk", "Host: localhost:99999999", "Host: 127.0.0.1:8089@evil.example")) {
            cases.add(new Case(host, get("/claims/ok/gpu", host), Set.of(400), true));
        }
        cases.add(new Case("no Host, HTTP/1.1", "GET /claims HTTP/1.1\r\nConnection: close\r\n\r\n"
                .getBytes(StandardCharsets.ISO_8859_1), Set.of(400), true));
        for (String host : List.of("Host: evil.example", "Host: evil.example:8089", "Host:",
                "Host: localhost.", "Host: [::2]",
                "Host: " + "h".repeat(2_000))) {
            cases.add(new Case(host.length() > 40 ? "long Host" : host, get("/claims/ok/gpu", host), Set.of(400), true));
        }
        cases.add(new Case("Host with NUL", get("/claims/ok/gpu", "Host: local\u0000host"), Set.of(400), false));
        cases.add(new Case("two Hosts", get("/claims/ok/gpu", "Host: localhost", "Host: evil.example"), Set.of(400), true));
        cases.add(new Case("no Host, HTTP/1.0", "GET /claims HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1),
                Set.of(400), true));
        // Bodies on GET.
        cases.add(new Case("GET with body", request("GET", "/claims/ok/gpu", "x".repeat(10_000).getBytes(StandardCharsets.UTF_8)),
                Set.of(200, 400), true));
        cases.add(new Case("GET chunked body", ("GET /claims/ok/gpu HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1),
                Set.of(200, 400), true));
        // The validator: a body larger than the file limit (1 MiB) is refused.
        cases.add(new Case("POST /validate image", request("POST", "/validate", new byte[10], "Content-Type: image/png"),
                Set.of(415), true));
        cases.add(new Case("POST /validate lying Content-Length", ("POST /validate HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Type: application/json\r\nContent-Length: 99999999999999999999\r\n\r\n{}")
                .getBytes(StandardCharsets.ISO_8859_1), Set.of(400, 413), false));
        // Bad request lines, which the HTTP parser answers (or closes).
        for (String line : List.of("GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET /claims HTTP/9.9\r\nHost: localhost\r\n\r\n",
                "GET /claims HTTP/1.1 extra\r\nHost: localhost\r\n\r\n", "GET /claims/a b HTTP/1.1\r\nHost: localhost\r\n\r\n",
                "GET /claims HTTP/1.1\r\nHost: localhost\r\nNoColonHere\r\n\r\n", "\u0000\u0001\u0002\u00ff\r\n\r\n",
                "GET /claims\u0000/ok HTTP/1.1\r\nHost: localhost\r\n\r\n", "GET claims HTTP/1.1\r\nHost: localhost\r\n\r\n",
                "GET /claims HTTP/1.1\r\nHost: localhost\r\nX: a\u0000b\r\n\r\n")) {
            cases.add(new Case("request line " + line.split("\r\n")[0].replaceAll("\\p{Cntrl}", "?"),
                    line.getBytes(StandardCharsets.ISO_8859_1), Set.of(-1, 400, 404, 505), false));
        }
        return cases;
    }

    @Test
    void hostileRequestsAreRefusedWithoutErrorsOrLeaks() throws Exception {
        List<Case> corpus = corpus();
        List<String> failures = new ArrayList<>();
        java.util.TreeMap<Integer, Integer> statuses = new java.util.TreeMap<>();
        for (Case c : corpus) {
            RawHttp.Answer answer = RawHttp.exchange(sidecar.port, c.request());
            statuses.merge(answer.status(), 1, Integer::sum);
            String raw = new String(answer.raw(), StandardCharsets.ISO_8859_1);
            String what = c.name().length() > 100 ? c.name().substring(0, 100) + "..." : c.name();
            if (raw.toLowerCase().contains(MARKER.toLowerCase())) {
                failures.add(what + ": LEAKED the canary: " + raw);
            }
            if (answer.status() >= 500 && answer.status() != 505) {
                failures.add(what + ": " + answer.status() + " " + answer.body());
            } else if (!c.allowed().contains(answer.status())) {
                failures.add(what + ": expected one of " + c.allowed() + ", got " + answer.status() + " " + answer.body());
            } else if (answer.status() >= 400 && c.appAnswers()) {
                // The application's own answers are problem documents with a code.
                if (!answer.contentType().equals("application/problem+json")) {
                    failures.add(what + ": " + answer.status() + " is " + answer.contentType() + ", not a problem: " + answer.body());
                } else {
                    JsonNode problem = JSON.readTree(answer.body());
                    if (problem.path("code").asText().isEmpty() || problem.path("status").asInt() != answer.status()) {
                        failures.add(what + ": problem without code or status: " + answer.body());
                    }
                }
            }
        }
        // Large declared bodies: past quarkus.http.limits.max-body-size the head alone is answered, 413 with the
        // problem, and the connection closed, before a byte of the body is read. The client asks with
        // "Expect: 100-continue" (as curl does for large bodies) and so sends no body unless told to continue.
        // (The JDK 17 HttpClient never completes such an exchange when the refusal has a body; JDK 25's does.)
        for (long length : List.of(10L * 1024 * 1024, 2L * 1024 * 1024 + 1)) {
            RawHttp.Answer r = RawHttp.exchange(sidecar.port, "POST /validate HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: " + length + "\r\n\r\n");
            statuses.merge(r.status(), 1, Integer::sum);
            if (r.status() != 413 || !r.body().contains("\"code\":\"payload-too-large\"")
                    || !"close".equalsIgnoreCase(r.header("connection")) || r.body().contains(MARKER)) {
                failures.add("POST /validate declaring " + length + " bytes: " + r.status() + " " + r.headers() + " " + r.body());
            }
        }
        // The sidecar still serves, and logged no internal error.
        RawHttp.Answer fine = RawHttp.exchange(sidecar.port, get("/claims/ok/gpu"));
        assertEquals(200, fine.status(), fine.body());
        String log = sidecar.log();
        System.out.printf("[hostile] %d hostile requests (+2 large POSTs), answers by status %s, canary never served%n", corpus.size(), statuses);
        assertTrue(failures.isEmpty(), failures.size() + " of " + corpus.size() + " wrong:\n" + String.join("\n", failures));
        String unexpected = log.lines().filter(l -> l.contains("ERROR") || l.contains("Exception"))
                .reduce("", (a, b) -> a + b + "\n");
        assertTrue(unexpected.isEmpty(), "no error logged:\n" + unexpected);
    }
}
