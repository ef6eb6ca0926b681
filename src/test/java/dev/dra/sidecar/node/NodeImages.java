package dev.dra.sidecar.node;

import dev.dra.sidecar.image.PodLikeContainer;
import dev.dra.sidecar.image.Podman;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The sidecar image in the node's containerd: built from this worktree with the README's {@code podman build}
 * command, then saved under a name made from the image ID it got (podman's store is shared: the tag the README
 * gives may be rebuilt by someone else at any time) and imported with {@code ctr -n k8s.io images import}.
 */
final class NodeImages {

    private NodeImages() {}

    /** Why the sidecar image cannot be built here, or null. */
    static String whyNoImage() {
        return Podman.whyPodmanCannotRun();
    }

    /** Builds the image and imports it into the node; returns its name in containerd. */
    static String importSidecar(KubeNode node) throws IOException, InterruptedException {
        PodLikeContainer.ensureBaseImages();
        Path iid = KubeNode.STATE.resolve("sidecar.iid").toAbsolutePath();
        String script = PodLikeContainer.readmeBuildScript();
        if (!script.contains("podman build ")) {
            throw new IllegalStateException("the README's image build has no podman build: " + script);
        }
        long started = System.nanoTime();
        // A label of its own gives the node's image an ID of its own. The release is built reproducibly, so without
        // it both would share one ID, and once kubelet has pulled that ID with a pod's credentials
        // (RegistryPullOnNodeIT) it refuses the ID to pods without them that ask for it with pull policy Never.
        check(Podman.bash(900, script.replace("podman build ", "podman build --iidfile " + iid
                + " --label dev.dra.test-node.image=imported ")), "podman build");
        String id = Files.readString(iid).strip().replaceFirst("^sha256:", "");
        String name = "localhost/dra-test-node/sidecar:" + id.substring(0, 12);
        Path archive = KubeNode.STATE.resolve("sidecar-image.tar").toAbsolutePath();
        Files.deleteIfExists(archive);
        check(Podman.podman(60, "tag", id, name), "podman tag");
        try {
            check(Podman.podman(300, "save", "--quiet", "--format", "oci-archive", "-o", archive.toString(), name),
                    "podman save");
        } finally {
            Podman.podman(60, "untag", id, name);
        }
        ctr(node, "images", "import", archive.toString());
        Files.deleteIfExists(archive);
        System.err.printf("sidecar image %s built and imported in %d ms%n", name,
                (System.nanoTime() - started) / 1_000_000);
        return name;
    }

    /** {@code ctr -n k8s.io <args>} against the node's containerd: its stdout; fails unless it exits 0. */
    static String ctr(KubeNode node, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(node.env.get("ctr"), "--address",
                node.env.get("containerd_socket"), "-n", "k8s.io"));
        command.addAll(List.of(args));
        Path errors = Files.createTempFile("ctr", ".err");
        try {
            // stdout alone: ctr warns on stderr (cgroup v1 deprecation) even when it succeeds.
            Process process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(300, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(command + " failed: " + output + Files.readString(errors));
            }
            return output;
        } finally {
            Files.deleteIfExists(errors);
        }
    }

    private static void check(Podman.Result result, String what) {
        if (!result.ok()) {
            throw new IllegalStateException(what + " failed:\n" + result.output());
        }
    }
}
