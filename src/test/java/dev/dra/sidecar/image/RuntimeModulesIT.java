package dev.dra.sidecar.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * src/main/docker/runtime-modules follows the packaged application: every JDK module that {@code jdeps} of the Java
 * 25 JDK finds the jars of target/quarkus-app using is linked (listed, or required by a listed module) or left out
 * with a reason, and every module left out is still used by some jar, so that a dependency that starts to need
 * another module fails here, not at a pod's start. (That the linked runtime runs the sidecar: SidecarImageIT.)
 * Skipped, saying why, without a Temurin 25 JDK here.
 */
class RuntimeModulesIT {

    static final Path JDEPS = Path.of(System.getProperty("dra.temurin25.home", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "jdeps");

    @Test
    void everyModuleTheJarsUseIsLinkedOrLeftOutWithAReason(@TempDir Path jars) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(JDEPS), "no Temurin 25 jdeps at " + JDEPS);
        Path app = Path.of("target/quarkus-app");
        assertTrue(Files.isRegularFile(app.resolve("quarkus-run.jar")), "./mvnw package made " + app);
        List<String> command = new ArrayList<>(List.of(JDEPS.toString(), "--ignore-missing-deps", "--multi-release", "25",
                "-summary", "--class-path", jars + "/*"));
        try (Stream<Path> files = Files.walk(app)) {
            for (Path jar : files.filter(f -> f.toString().endsWith(".jar") && !f.endsWith("quarkus-run.jar")).toList()) {
                command.add(withoutModuleInfo(jar, jars).toString());
            }
        }
        Process jdeps = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(jdeps.getInputStream().readAllBytes());
        assertEquals(0, jdeps.waitFor(), output);
        Set<String> used = new TreeSet<>();
        Matcher dependency = Pattern.compile("(?m) -> ((java|jdk)\\.[a-z.]+)$").matcher(output);
        while (dependency.find()) {
            used.add(dependency.group(1));
        }
        assertTrue(used.contains("java.base"), output);

        Set<String> listed = new TreeSet<>();
        Set<String> leftOut = new TreeSet<>();
        for (String line : Files.readAllLines(ImageContents.RUNTIME_MODULES)) {
            if (line.matches("[a-z][a-z.]*")) {
                listed.add(line);
            } else if (line.matches("-[a-z][a-z.]*")) {
                leftOut.add(line.substring(1));
            }
        }
        Set<String> linked = withRequired(listed);
        assertEquals(Set.of(), difference(used, linked, leftOut), "modules the jars use that the image neither links "
                + "nor leaves out with a reason (runtime-modules)");
        assertEquals(Set.of(), difference(leftOut, used, Set.of()), "modules left out that no jar uses any more");
    }

    /** The modules and those they require, transitively (the test JVM's module graph, as jlink resolves it). */
    private static Set<String> withRequired(Set<String> modules) {
        Set<String> all = new TreeSet<>();
        ArrayDeque<String> todo = new ArrayDeque<>(modules);
        while (!todo.isEmpty()) {
            String name = todo.pop();
            if (all.add(name)) {
                ModuleFinder.ofSystem().find(name).orElseThrow(() -> new IllegalStateException("no module " + name))
                        .descriptor().requires().stream().map(ModuleDescriptor.Requires::name).forEach(todo::push);
            }
        }
        return all;
    }

    private static Set<String> difference(Set<String> from, Set<String> a, Set<String> b) {
        Set<String> rest = new TreeSet<>(from);
        rest.removeAll(a);
        rest.removeAll(b);
        return rest;
    }

    /** A copy of the jar without module-info.class: jdeps then reads it as the class path does. */
    private static Path withoutModuleInfo(Path jar, Path dir) throws IOException {
        Path copy = dir.resolve(jar.getParent().getFileName() + "-" + jar.getFileName());
        try (InputStream in = Files.newInputStream(jar); ZipInputStream zip = new ZipInputStream(in);
                OutputStream out = Files.newOutputStream(copy); ZipOutputStream copied = new ZipOutputStream(out)) {
            for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                if (!entry.getName().endsWith("module-info.class")) {
                    copied.putNextEntry(new ZipEntry(entry.getName()));
                    zip.transferTo(copied);
                    copied.closeEntry();
                }
            }
        }
        return copy;
    }
}
