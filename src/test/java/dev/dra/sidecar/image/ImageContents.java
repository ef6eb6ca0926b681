package dev.dra.sidecar.image;

import static dev.dra.sidecar.image.PodLikeContainer.IMAGE;
import static dev.dra.sidecar.image.PodLikeContainer.VERSION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the built image is made of, as a registry client or scanner sees it: its size, its OCI labels, its files
 * (a runtime, the application and its AOT cache on a base without shell or package manager) and the modules of
 * its runtime.
 */
final class ImageContents {

    /** The image's uncompressed size at most, in MB as podman counts them (10^6 bytes). */
    static final long MAX_MEGABYTES = 150;
    static final Path RUNTIME_MODULES = Path.of("src/main/docker/runtime-modules");

    private ImageContents() {}

    static void sizeWithinTarget() {
        long bytes = Long.parseLong(Podman.podman(30, "image", "inspect", "--format", "{{.Size}}", IMAGE).output().strip());
        System.out.printf("[image] %s: %.1f MB uncompressed%n", IMAGE, bytes / 1e6);
        assertTrue(bytes <= MAX_MEGABYTES * 1_000_000, IMAGE + " is " + bytes + " bytes, over " + MAX_MEGABYTES + " MB");
    }

    /** The OCI annotations of the image: the pom's version, the commit it was built from, the OpenAPI licence. */
    static void labels() throws IOException {
        JsonNode labels = new ObjectMapper().readTree(
                Podman.podman(30, "image", "inspect", "--format", "{{json .Labels}}", IMAGE).output());
        String oci = "org.opencontainers.image.";
        assertEquals("dra-metadata-sidecar", labels.path(oci + "title").asText());
        assertFalse(labels.path(oci + "description").asText().isBlank(), labels.toString());
        assertTrue(labels.path(oci + "source").asText().startsWith("https://"), labels.toString());
        assertEquals(VERSION, labels.path(oci + "version").asText(), "the pom's version");
        Podman.Result head = Podman.bash(30, "git rev-parse HEAD");
        assertTrue(head.ok(), head.output());
        assertEquals(head.output().strip(), labels.path(oci + "revision").asText(), "the commit built");
        assertEquals("Apache-2.0", labels.path(oci + "licenses").asText());
        assertTrue(PodLikeContainer.property("quarkus.smallrye-openapi.info-license-url").endsWith("/LICENSE-2.0.html"),
                "the licence the OpenAPI document names");
    }

    /** Every file of the image: the runtime, the application, its cache, the C library, and no shell or apt/dpkg. */
    static void files() {
        Podman.Result listing = Podman.bash(120, "c=$(podman create " + IMAGE + ")\n"
                + "trap 'podman rm \"$c\" >/dev/null' EXIT\npodman export \"$c\" | tar -t");
        assertTrue(listing.ok(), listing.output());
        Set<String> files = new TreeSet<>(listing.output().lines().map(l -> l.replaceFirst("^\\./", ""))
                .filter(l -> !l.endsWith("/")).toList()); // files and links, not directories
        for (String needed : List.of("opt/jre/bin/java", "opt/jre/lib/modules", "deployments/quarkus-run.jar",
                "deployments/app.aot", "deployments/jvm-options", "deployments/native/libjnidispatch.so", "etc/passwd")) {
            assertTrue(files.contains(needed), "the image has " + needed);
        }
        assertTrue(files.stream().anyMatch(f -> f.matches("(usr/)?lib/[^/]+-linux-gnu/libc\\.so\\.6")), "the C library");
        for (String absent : List.of("bin/sh", "bin/bash", "bin/dash", "bin/busybox", "usr/bin/apt", "usr/bin/dpkg",
                "usr/bin/env", "opt/jre/bin/keytool", "opt/jre/lib/src.zip")) {
            assertFalse(files.contains(absent) || files.contains("usr/" + absent), "nothing the sidecar does not run: " + absent);
        }
        assertEquals(List.of("opt/jre/bin/java"), files.stream().filter(f -> f.startsWith("opt/jre/bin/")).toList(),
                "the runtime's only command");
    }

    /** The runtime has the modules runtime-modules lists (and what they require), none of those it leaves out. */
    static void runtimeModules() throws IOException {
        Podman.Result listed = Podman.podman(60, "run", "--rm", "--network", "none", "--entrypoint", "/opt/jre/bin/java",
                IMAGE, "--list-modules");
        assertTrue(listed.ok(), listed.output());
        Set<String> modules = new TreeSet<>(listed.output().lines().map(l -> l.replaceFirst("@.*", "").strip()).toList());
        for (String line : Files.readAllLines(RUNTIME_MODULES)) {
            if (line.matches("[a-z].*")) {
                assertTrue(modules.contains(line.strip()), line + " in " + modules);
            } else if (line.startsWith("-")) {
                assertFalse(modules.contains(line.substring(1).strip()), line + " left out, yet in " + modules);
            }
        }
        System.out.println("[image] runtime modules: " + modules);
    }
}
