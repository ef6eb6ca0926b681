package dev.dra.sidecar.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dra.sidecar.testsupport.Eventually;
import dev.dra.sidecar.testsupport.PackagedSidecar;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.ResourceClaim;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The metadata files the kubelet mounts into one container of a pod, made from a tree of every claim's files: only
 * the claims (and, where narrowed, the requests) the container lists in its own {@code resources.claims}, at
 * {@code resourceclaims/<ResourceClaim name>/...} or {@code resourceclaimtemplates/<pod claim name>/...}; and the
 * packaged sidecar run on them as that container (its environment), to see what its startup check says (the check
 * its postStart hook waits for).
 */
final class KubeletMounts {

    static final Path SAMPLE = Path.of("deploy/sample/dra-device-attributes");

    private KubeletMounts() {}

    /** Copies into {@code root} what the kubelet would mount for {@code container} of {@code pod} from {@code all}. */
    static void mount(Pod pod, Container container, Path all, Path root) throws IOException {
        for (ResourceClaim reference : container.getResources().getClaims()) {
            PodResourceClaim claim = pod.getSpec().getResourceClaims().stream()
                    .filter(c -> c.getName().equals(reference.getName())).findFirst().orElseThrow();
            Path dir = claim.getResourceClaimName() != null
                    ? Path.of("resourceclaims", claim.getResourceClaimName())
                    : Path.of("resourceclaimtemplates", claim.getName());
            if (reference.getRequest() != null && !reference.getRequest().isEmpty()) {
                dir = dir.resolve(reference.getRequest());
            }
            copy(all.resolve(dir), root.resolve(dir));
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            return; // the driver has not written anything for this claim
        }
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
    }

    /** Runs the packaged sidecar as the pod's sidecar container until its startup check answers with {@code body}. */
    static void assertStartupCheck(Pod pod, Path root, int status, String body) throws Exception {
        Container sidecar = Pods.sidecar(pod);
        mount(pod, sidecar, SAMPLE, root);
        // The entries with a value: those the kubelet fills from the downward API (valueFrom) have no pod here.
        Map<String, String> environment = sidecar.getEnv().stream().filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
        try (PackagedSidecar process = PackagedSidecar.start("kube-" + pod.getMetadata().getName(), root, List.of(),
                List.of(), Map.of(), environment)) {
            HttpResponse<String> started = Eventually.await(Duration.ofSeconds(30),
                    () -> {
                        try {
                            return process.management("/q/health/started");
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    },
                    r -> r.body().contains(body), "the startup check saying " + body);
            assertEquals(status, started.statusCode(), started.body());
        }
    }
}
