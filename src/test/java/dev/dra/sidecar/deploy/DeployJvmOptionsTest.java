package dev.dra.sidecar.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dra.sidecar.testsupport.PackagedSidecar;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The image's JVM options (one java @argfile) are accepted by a real JVM, and the Dockerfile uses them. */
class DeployJvmOptionsTest {

    static final Path OPTIONS = Path.of("src/main/docker/jvm-options");
    static final Path DOCKERFILE = Path.of("src/main/docker/Dockerfile.jvm");
    static final Path TEMURIN_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
    static final String AOT_CACHE = "-XX:AOTCache=";
    static final String AOT_MODE_ON = "-XX:AOTMode=on";

    static List<String> options() throws IOException {
        return Files.readAllLines(OPTIONS).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    }

    /** The options a given JVM can be asked to take here: the AOT cache flags only inside the image. */
    static List<String> applicable() throws IOException {
        List<String> result = new ArrayList<>();
        for (String option : options()) {
            if (option.matches("-XX:[+-]?AOT.*")) {
                continue; // the cache exists only inside the image, which runs Java 25 (SidecarImageIT runs it)
            }
            result.add(option);
        }
        return result;
    }

    static int run(Path java, List<String> args, Path log) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(args);
        command.add("-version");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "java -version timed out");
        return process.exitValue();
    }

    /**
     * The options are valid for this JVM: all of them on the image's Java; on an older JVM, which the packaged ITs and
     * the bench run the jar on, with the options it does not know ignored (those of the image's Java alone).
     */
    @Test
    void theCurrentJvmAcceptsTheOptions(@TempDir Path dir) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> options = new ArrayList<>(PackagedSidecar.unknownOptionsIgnoredHere());
        options.addAll(applicable());
        assertFalse(options.isEmpty());
        Path log = dir.resolve("java.log");
        assertEquals(0, run(java, options, log), options + "\n" + Files.readString(log));
        // The same lines as an @argfile, exactly as the image passes them.
        Path argfile = dir.resolve("jvm-options");
        Files.write(argfile, options);
        assertEquals(0, run(java, List.of("@" + argfile), log), Files.readString(log));
        assertFalse(Files.readString(log).contains("Unrecognized"), Files.readString(log));
    }

    @Test
    void theImagesJdk25AcceptsTheOptions(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isExecutable(TEMURIN_25), "no Temurin 25 at " + TEMURIN_25);
        Path log = dir.resolve("java.log");
        assertEquals(0, run(TEMURIN_25, applicable(), log), Files.readString(log));
        // The cache flags themselves: with AOTMode=on a cache the JVM cannot use is one clear error, not a slow start.
        assertEquals(1, run(TEMURIN_25, List.of(AOT_MODE_ON, AOT_CACHE + dir.resolve("absent.aot")), log),
                Files.readString(log));
        assertTrue(Files.readString(log).contains("Unable to use AOT cache"), Files.readString(log));
    }

    @Test
    void optionsSuitTheAotCacheAndTheTrainingRun() throws IOException {
        List<String> options = options();
        assertTrue(options.stream().noneMatch(o -> o.startsWith("-Xshare")), "-Xshare:* cannot be combined with AOTCache");
        assertEquals(1, options.stream().filter(o -> o.startsWith(AOT_CACHE)).count());
        assertTrue(options.get(options.size() - 1).startsWith(AOT_CACHE + "/deployments/"), "AOT cache last, in /deployments");
        assertEquals(AOT_MODE_ON, options.get(options.size() - 2), "a cache the JVM cannot use fails the start");
        assertTrue(options.stream().anyMatch(o -> o.startsWith("-XX:MaxRAMPercentage=")), "heap follows the limit");
        assertTrue(options.contains("-XX:+UseSerialGC"));
    }

    /**
     * JNA's native library is loaded from the image, never unpacked (the root filesystem is read-only, /tmp too):
     * the one directory the options name is the one the Dockerfile fills with the library of the architecture it
     * builds for (TARGETARCH), from the build's copies of both. (That the library loads with exactly these options
     * is proven by the reliability ITs, which map /deployments/native to the build's copy.)
     */
    @Test
    void jnaLoadsItsNativeLibraryFromTheImage() throws IOException {
        List<String> options = options();
        assertTrue(options.contains("-Djna.nounpack=true"), "never unpacked into a temporary directory");
        assertTrue(options.contains("--enable-native-access=ALL-UNNAMED"), "no native-access warning on JDK 24+");
        assertTrue(options.contains("-Djna.boot.library.path=/deployments/native"), options.toString());
        String dockerfile = Files.readString(DOCKERFILE);
        assertTrue(dockerfile.contains("COPY target/jna-native/com/sun/jna/ /build/jna/"), "the build's copies");
        assertTrue(dockerfile.contains("ARG TARGETARCH"), "the architecture built for picks the library");
        for (String arch : List.of("amd64) jna=linux-x86-64", "arm64) jna=linux-aarch64")) {
            assertTrue(dockerfile.contains(arch), "both image architectures: " + arch);
            assertTrue(Files.isRegularFile(Path.of("target/jna-native/com/sun/jna", arch.substring(arch.indexOf('=') + 1),
                    "libjnidispatch.so")) || !Files.isDirectory(Path.of("target/jna-native")), "./mvnw package unpacks " + arch);
        }
        assertTrue(dockerfile.contains("cp \"/build/jna/$jna/libjnidispatch.so\" /deployments/native/"));
    }

    /** Nothing but the JNA mapping above names an architecture: the same Dockerfile builds amd64 and arm64. */
    @Test
    void dockerfileAssumesNoArchitecture() throws IOException {
        for (String line : Files.readAllLines(DOCKERFILE)) {
            if (line.contains(") jna=linux-")) {
                continue;
            }
            assertFalse(line.matches("(?i).*(amd64|x86[-_]64|aarch64|arm64|/lib64).*") && !line.startsWith("#"), line);
        }
    }

    @Test
    void dockerfileRunsTheOptionsFileOnJava25AsNonRoot() throws IOException {
        String dockerfile = Files.readString(DOCKERFILE);
        assertTrue(dockerfile.matches("(?s).*FROM \\S*(temurin:25|openjdk-25)\\S*.*"), "a Java 25 JDK links the runtime");
        assertTrue(dockerfile.matches("(?s).*\nCOPY src/main/docker/jvm-options [^\n]*/deployments/\n.*"));
        assertTrue(dockerfile.contains("ENTRYPOINT [\"/opt/jre/bin/java\", \"@/deployments/jvm-options\", \"-jar\", "
                + "\"/deployments/quarkus-run.jar\"]"));
        assertTrue(dockerfile.contains("target/quarkus-app/"), "copies the Quarkus application directory");
        assertTrue(dockerfile.contains("EXPOSE 8089 9000"));
        var user = java.util.regex.Pattern.compile("(?m)^USER (\\d+)(:\\d+)?$").matcher(dockerfile);
        String lastUser = null;
        while (user.find()) {
            lastUser = user.group(1);
        }
        assertTrue(lastUser != null && !lastUser.equals("0"), "numeric non-root USER");
        assertTrue(dockerfile.contains("aot-training.sh"), "the AOT cache comes from the training run");
        assertTrue(Files.isRegularFile(Path.of("src/main/docker/aot-training.sh")));
    }
}
