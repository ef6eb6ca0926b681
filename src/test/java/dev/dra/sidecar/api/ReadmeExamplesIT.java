package dev.dra.sidecar.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * Runs the README's examples as a new user would: the packaged sidecar on the bundled sample tree, then each
 * {@code shell example} (bash), {@code sh example} (dash) and {@code python example} block, with the port the test
 * sidecar got, from the project's directory (where the README's relative paths point).
 */
@QuarkusIntegrationTest
@TestProfile(ReadmeExamplesIT.SampleTree.class)
class ReadmeExamplesIT {

    public static class SampleTree implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("dra.metadata.root", Path.of("deploy/sample/dra-device-attributes").toAbsolutePath().toString());
        }
    }

    private static final Pattern EXAMPLE = Pattern.compile("```(shell|sh|python) example\\n(.*?)```", Pattern.DOTALL);

    @Test
    void everyExampleRunsAndPrintsTheSampleData() throws Exception {
        List<String[]> examples = examples();
        assertEquals(6, examples.size(), "the README's examples");
        assertTrue(run(examples.get(0)).contains("gpu-18db0e85-99e9-c746-8531-ffeb86328b39"));
        String shell = run(examples.get(0));
        assertTrue(shell.contains("{\"claims\":[{\"name\":\"gpu-claim\""), shell);
        assertTrue(shell.contains("{\"string\":\"0000:3b:00.0\"}"), shell);
        String python = run(examples.get(1));
        assertTrue(python.lines().anyMatch(l -> l.startsWith("gpu.example.com gpu-0 gpu-")), python);
        assertTrue(python.lines().anyMatch(l -> l.startsWith("nic.example.com ")), python);
        String longPoll = run(examples.get(2));
        assertTrue(!longPoll.isBlank() && !longPoll.contains("Traceback"), longPoll);
        assertEquals("CUDA_VISIBLE_DEVICES=gpu-18db0e85-99e9-c746-8531-ffeb86328b39,gpu-7a2c4e61-0b3d-4f58-a9e6-c1d2e3f40516\n"
                + "0000:3b:00.0\n0000:86:00.0\n0000:3c:00.0\n", run(examples.get(3)));
        assertEquals("NCCL_SOCKET_IFNAME=eth1\ngpu-0: LATEST-GPU-MODEL at 0000:3b:00.0\n", run(examples.get(4)));
        String validate = run(examples.get(5));
        assertTrue(validate.contains("\"decoded\":true") && validate.contains("\"apiVersion\":\"metadata.resource.k8s.io/v1beta1\""),
                validate);
    }

    /** README's table of what ./mvnw verify needs names test classes that exist, each of which skips without it. */
    @Test
    void everySuiteThePrerequisitesNameExists() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        int from = readme.indexOf("| Needs | Suites skipped without it |");
        assertTrue(from >= 0, "README lists what ./mvnw verify needs");
        String table = readme.substring(from, readme.indexOf("\n\n", from));
        Matcher suite = Pattern.compile("`([A-Z][A-Za-z]+(?:IT|Test))`").matcher(table);
        int named = 0;
        while (suite.find()) {
            String name = suite.group(1);
            try (var files = Files.walk(Path.of("src/test/java"))) {
                Path source = files.filter(f -> f.getFileName().toString().equals(name + ".java")).findFirst()
                        .orElseThrow(() -> new AssertionError("README names " + name + ", which does not exist"));
                String code = Files.readString(source);
                assertTrue(code.contains("assume") || code.contains("Assumptions") || code.contains("KubeApiServerExtension"),
                        name + " skips when what it needs is missing");
            }
            named++;
        }
        assertTrue(named >= 8, "suites named: " + named);
    }

    private static List<String[]> examples() throws Exception {
        Matcher m = EXAMPLE.matcher(Files.readString(Path.of("README.md")));
        List<String[]> out = new ArrayList<>();
        while (m.find()) {
            out.add(new String[] {m.group(1), m.group(2)});
        }
        return out;
    }

    private static String run(String[] example) throws Exception {
        int port = ConfigProvider.getConfig().getValue("quarkus.http.test-port", Integer.class);
        String code = example[1].replace("localhost:8089", "localhost:" + port);
        List<String> command = switch (example[0]) {
            case "shell" -> List.of("bash", "-euo", "pipefail", "-c", code);
            case "sh" -> List.of("dash", "-eu", "-c", code); // the recipes for images with a POSIX sh only
            default -> List.of("python3", "-c", code);
        };
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "example finished");
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
