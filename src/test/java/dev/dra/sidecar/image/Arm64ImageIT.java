package dev.dra.sidecar.image;

import static dev.dra.sidecar.image.PodLikeContainer.VERSION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The README's image build for arm64 ({@code --platform linux/arm64}): the build stage runs jlink and the AOT
 * training with the arm64 runtime, so it needs arm64 base images and, on another host, an emulator for arm64
 * binaries (qemu-user-static registered with binfmt_misc). Skipped, saying which of these this machine lacks.
 * (That the Dockerfile names no architecture but to pick JNA's library: DeployJvmOptionsTest.)
 */
class Arm64ImageIT {

    static final String IMAGE = "dra-metadata-sidecar:" + VERSION + "-arm64";
    static final List<String> BASES = List.of("gcr.io/distroless/base-nossl-debian12", "eclipse-temurin:25-jdk");

    @Test
    void theReadmeBuildBuildsForArm64() throws Exception {
        String why = Podman.whyPodmanCannotRun();
        Assumptions.assumeTrue(why == null, () -> "arm64 build skipped: " + why);
        List<String> missing = new ArrayList<>();
        if (!System.getProperty("os.arch").equals("aarch64") && !Files.exists(Path.of("/proc/sys/fs/binfmt_misc/qemu-aarch64"))) {
            missing.add("no emulator for arm64 binaries (qemu-user-static registered in /proc/sys/fs/binfmt_misc)");
        }
        for (String base : BASES) {
            Podman.Result arch = Podman.podman(30, "image", "inspect", "--format", "{{.Architecture}}", base);
            if (!arch.ok() || !arch.output().strip().equals("arm64")) {
                missing.add(base + " for arm64 (here: " + (arch.ok() ? arch.output().strip() : "absent")
                        + "; no registry is reachable, and the stand-ins are built from this machine's packages and JDK)");
            }
        }
        Assumptions.assumeTrue(missing.isEmpty(), () -> "arm64 build skipped: " + String.join("; ", missing));

        String script = PodLikeContainer.readmeBuildScript().replace("-t dra-metadata-sidecar:$version ",
                "--platform linux/arm64 -t " + IMAGE + " ");
        Podman.Result built = Podman.bash(3600, script);
        assertTrue(built.ok(), "arm64 build failed:\n" + built.output());
        assertEquals("arm64", Podman.podman(30, "image", "inspect", "--format", "{{.Architecture}}", IMAGE).output().strip());
        Podman.Result machine = Podman.bash(120, "c=$(podman create " + IMAGE + ")\ntrap 'podman rm \"$c\" >/dev/null' EXIT\n"
                + "podman export \"$c\" | tar -xO deployments/native/libjnidispatch.so | od -An -tu2 -j18 -N2");
        assertEquals("183", machine.output().strip(), "JNA's library is an aarch64 ELF (e_machine 183)");
    }
}
