package dev.dra.sidecar.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The environment route's answer for hostile metadata ({@link PlainCallsTree#HOSTILE}: quotes, {@code $(...)},
 * backticks, newlines, {@code =}, non-ASCII, a 64 KiB string), evaluated by a real {@code dash} and {@code bash}
 * with {@code eval "$(curl -s ...)"}: exactly the documented variables appear, each byte for byte the value the
 * JSON route serves, and nothing the values spell runs.
 */
@QuarkusTest
@TestProfile(PlainCallsTree.class)
class EnvShellTest {

    private static final String PREFIX = "DRA_HOSTILE_GPU_EVIL_0_";

    /**
     * Fetches the route with curl and evaluates it, then lists the environment a program started from that shell
     * gets ({@code env -0}): every variable the answer exports, whatever bytes its value holds; then writes each
     * named variable's value to a file of its own.
     */
    private static final String SCRIPT = """
            set -eu
            url=$1; out=$2; shift 2
            cd "$out/cwd"
            answer=$(curl -fsS "$url")
            env -0 > "$out/before"
            eval "$answer"
            env -0 > "$out/after"
            for name in "$@"; do
              eval "value=\\${$name}"
              printf '%s' "$value" > "$out/values/$name"
            done
            """;

    @TestHTTPResource("/claims/hostile/gpu/env")
    URI env;

    @ParameterizedTest
    @ValueSource(strings = {"dash", "bash"})
    void onlyTheDocumentedVariablesAreSetEachEqualToTheJsonValueAndNothingRuns(String shell) throws Exception {
        Map<String, byte[]> expected = expectedValues();
        Path out = Files.createTempDirectory("dra-env-" + shell);
        Files.createDirectories(out.resolve("cwd"));
        Files.createDirectories(out.resolve("values"));
        List<Path> traps = Stream.of("subst", "backtick", "newline", "close").map(t -> Path.of("/tmp/dra-pwned-" + t)).toList();
        for (Path trap : traps) {
            Files.deleteIfExists(trap);
        }
        List<String> command = new ArrayList<>(List.of(shell, "-c", SCRIPT, shell, env.toString(), out.toString()));
        command.addAll(expected.keySet());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), shell + " finished");
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), output);
        assertEquals("", output, "the evaluation printed nothing");

        Set<String> added = new TreeSet<>(names(out.resolve("after")));
        added.removeAll(names(out.resolve("before")));
        added.remove("_"); // the shell's own last-argument variable
        assertEquals(new TreeSet<>(expected.keySet()), added, "the variables the evaluation set");
        for (Map.Entry<String, byte[]> variable : expected.entrySet()) {
            assertArrayEquals(variable.getValue(), Files.readAllBytes(out.resolve("values").resolve(variable.getKey())),
                    variable.getKey());
        }
        for (Path trap : traps) {
            assertFalse(Files.exists(trap), "nothing ran: " + trap);
        }
        try (Stream<Path> left = Files.list(out.resolve("cwd"))) {
            assertEquals(List.of(), left.toList(), "nothing was written in the shell's directory");
        }
    }

    /** Each documented name and the value the JSON routes serve for it, in UTF-8. */
    private static Map<String, byte[]> expectedValues() {
        Map<String, byte[]> expected = new LinkedHashMap<>();
        for (String attribute : PlainCallsTree.HOSTILE.keySet()) {
            String value = given().get("/claims/hostile/gpu/devices/evil-0/attributes/" + attribute).then().statusCode(200)
                    .extract().path("string");
            assertEquals(PlainCallsTree.HOSTILE.get(attribute), value, "the JSON route serves the file's value");
            expected.put(PREFIX + attribute.toUpperCase(java.util.Locale.ROOT).replaceAll("[^A-Z0-9]", "_"),
                    value.getBytes(StandardCharsets.UTF_8));
        }
        List<String> many = given().get("/claims/hostile/gpu/devices/evil-0/attributes/many").then().statusCode(200)
                .extract().path("strings");
        expected.put(PREFIX + "MANY", String.join(",", many).getBytes(StandardCharsets.UTF_8));
        return expected;
    }

    /** The names of the variables in an {@code env -0} listing. */
    private static Set<String> names(Path listing) throws Exception {
        String all = new String(Files.readAllBytes(listing), StandardCharsets.UTF_8);
        return Arrays.stream(all.split("\0")).filter(e -> !e.isEmpty()).map(e -> e.substring(0, e.indexOf('=')))
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
