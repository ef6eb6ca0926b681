package dev.dra.sidecar.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.dra.sidecar.api.ApiConfig;
import io.smallrye.config.WithDefault;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The image run the way deploy/kubernetes/components/sidecar/sidecar.yaml runs it, as the image tests see it: where
 * it listens, how it is built and started, and what the host can read of it (its state, log, memory cgroup and
 * metrics).
 */
public final class PodLikeContainer {

    static final String VERSION = dev.dra.sidecar.testsupport.ProjectVersion.get();
    static final String IMAGE = "dra-metadata-sidecar:" + VERSION;
    static final String ROOT_IN_CONTAINER = "/var/run/kubernetes.io/dra-device-attributes";
    static final String REWRITTEN = "resourceclaims/net-claim/nic/dranet.example.com-metadata.json";
    static final String API = "http://127.0.0.1:8089";
    /** The management interface on a free port (the pod's 9000 is often taken on a shared test machine). */
    static final int MANAGEMENT_PORT = dev.dra.sidecar.testsupport.LocalPorts.free();
    static final String MANAGEMENT = "http://127.0.0.1:" + MANAGEMENT_PORT;

    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private static boolean built;

    private PodLikeContainer() {}

    /**
     * Builds {@link #IMAGE} with the README's build, once per test JVM: every image test runs the image of the jar
     * this ./mvnw verify packaged (podman's layer cache keeps what did not change).
     */
    static synchronized void buildImage() throws IOException {
        if (built) {
            return;
        }
        ensureBaseImages().forEach(said -> System.out.println("[image] " + said));
        long started = System.nanoTime();
        Podman.Result build = Podman.bash(900, readmeBuildScript());
        assertTrue(build.ok(), "podman build failed:\n" + build.output());
        System.out.printf("[image] built %s in %d s: %s%n", IMAGE, seconds(started),
                build.output().lines().filter(l -> l.startsWith("aot-training:")).findFirst().orElse(""));
        built = true;
    }

    /**
     * Starts container {@code name} (removing an old one of that name) with run-like-pod.sh at the manifests' memory
     * limit, on {@code tree}, with {@code hostFile} bind-mounted over {@link #REWRITTEN} unless {@code null}, the
     * management interface on {@link #MANAGEMENT_PORT}, and {@code extraPodmanOptions}. Fails when a port it needs is
     * taken.
     */
    static void runLikePod(String name, Path tree, Path hostFile, String... extraPodmanOptions) throws IOException {
        for (int port : new int[] {8089, MANAGEMENT_PORT}) {
            try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                probe.close();
            } catch (IOException e) {
                fail("port " + port + " is taken on this machine; the pod-like container needs it: " + e.getMessage());
            }
        }
        Podman.podman(60, "rm", "--force", "--time", "0", name);
        List<String> args = new ArrayList<>(List.of(IMAGE, name, manifestMemoryLimit(), tree.toString()));
        if (hostFile != null) {
            args.addAll(List.of(hostFile.toString(), REWRITTEN));
        }
        args.addAll(List.of("--", "--env", "QUARKUS_MANAGEMENT_PORT=" + MANAGEMENT_PORT));
        args.addAll(List.of(extraPodmanOptions));
        Podman.Result run = Podman.script(120, "run-like-pod.sh", args);
        assertTrue(run.ok(), "podman run failed:\n" + run.output());
    }

    /**
     * The base images of src/main/docker/Dockerfile.jvm in podman's store (the real ones, or the labelled
     * stand-ins src/test/image/ builds where no registry is reachable); returns what each script said.
     */
    public static List<String> ensureBaseImages() {
        List<String> said = new ArrayList<>();
        for (String standIn : List.of("distroless-standin.sh", "temurin-standin.sh")) {
            Podman.Result base = Podman.script(600, standIn, List.of());
            assertTrue(base.ok(), "no base image: " + base.output());
            said.add(base.output().strip());
        }
        return said;
    }

    /**
     * The image build of the README's image section as a bash script, after its {@code ./mvnw package -DskipTests}
     * (the jar this test runs is the one ./mvnw verify packaged): it reads the pom's version, then {@code podman
     * build ...} (docker takes the same words).
     */
    public static String readmeBuildScript() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        Matcher block = Pattern.compile("(?s)```shell\\n(\\./mvnw package[^\\n]*)\\n(version=.*?\\npodman build .*?)\\n```")
                .matcher(readme);
        assertTrue(block.find(), "README.md shows the image build as ./mvnw package ..., version=..., podman build ...");
        assertEquals("./mvnw package -DskipTests", block.group(1), "the jar this test runs is the one ./mvnw verify packaged");
        String script = block.group(2);
        assertTrue(script.contains("-t dra-metadata-sidecar:$version"), "the README's tag is the one this test runs: " + script);
        return script;
    }

    /** The memory limit of the sidecar container in the Kustomize component, in podman's spelling. */
    static String manifestMemoryLimit() throws IOException {
        JsonNode deployment = new YAMLMapper().readTree(Path.of("deploy/kubernetes/components/sidecar/sidecar.yaml").toFile());
        String limit = deployment.at("/spec/template/spec/initContainers/0/resources/limits/memory").asText();
        assertTrue(limit.matches("\\d+Mi"), "a limit in Mi: " + limit);
        return limit.replace("Mi", "m");
    }

    /** Seconds from the container's process start to the first {@code started} UP seen (10 ms resolution). */
    static double awaitStarted(String name) throws Exception {
        long pid = Long.parseLong(inspect(name, "{{.State.Pid}}"));
        double processStart = Long.parseLong(Files.readString(Path.of("/proc/" + pid + "/stat"))
                .replaceFirst("^.*\\) ", "").split(" ")[19]) / 100.0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (status(MANAGEMENT + "/q/health/started") == 200) {
                double now = Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]);
                return now - processStart;
            }
            if (!"running".equals(inspect(name, "{{.State.Status}}"))) {
                fail(name + " ended during start-up:\n" + logs(name));
            }
            Thread.sleep(10);
        }
        fail(name + " did not report started within 60 s:\n" + logs(name));
        return -1;
    }
    static int shutdownTimeoutSeconds() throws IOException {
        return Integer.parseInt(property("quarkus.shutdown.timeout").replace("s", ""));
    }

    static int maxLongPolls() throws ReflectiveOperationException {
        return Integer.parseInt(ApiConfig.class.getMethod("maxLongPolls").getAnnotation(WithDefault.class).value());
    }

    static int maxRequestBodies() throws ReflectiveOperationException {
        return Integer.parseInt(ApiConfig.class.getMethod("maxRequestBodies").getAnnotation(WithDefault.class).value());
    }

    static String property(String key) throws IOException {
        for (String line : Files.readAllLines(Path.of("src/main/resources/application.properties"))) {
            if (line.startsWith(key + "=")) {
                return line.substring(key.length() + 1).strip();
            }
        }
        throw new IllegalStateException(key + " is not in application.properties");
    }

    static int waiters() {
        return (int) sample(get(MANAGEMENT + "/q/metrics").body(), "dra_long_poll_waiters");
    }

    /** The value of an unlabelled metric in a Prometheus scrape; -1 if it is missing. */
    static double sample(String metrics, String name) {
        Matcher sample = Pattern.compile("(?m)^" + Pattern.quote(name) + " (\\S+)$").matcher(metrics);
        return sample.find() ? Double.parseDouble(sample.group(1)) : -1;
    }

    /** The container's memory cgroup on the host: the v1 memory hierarchy's directory, or the v2 unified one's. */
    static Path memoryCgroup(String name) throws IOException {
        String pid = inspect(name, "{{.State.Pid}}");
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/cgroup"))) {
            String[] parts = line.split(":", 3);
            if (Arrays.asList(parts[1].split(",")).contains("memory")) {
                return Path.of("/sys/fs/cgroup/memory" + parts[2]);
            }
            if (parts[0].equals("0") && parts[1].isEmpty()) {
                return Path.of("/sys/fs/cgroup" + parts[2]);
            }
        }
        throw new IllegalStateException("no memory cgroup for " + name);
    }

    /**
     * The most memory the cgroup has been charged since it was made: {@code memory.peak} (cgroup v2) or
     * {@code memory.max_usage_in_bytes} (v1), both counting page cache as well as anonymous memory.
     */
    static long memoryPeak(Path cgroup) throws IOException {
        Path v2 = cgroup.resolve("memory.peak");
        Path peak = Files.exists(v2) ? v2 : cgroup.resolve("memory.max_usage_in_bytes");
        return Long.parseLong(Files.readString(peak).strip());
    }

    /** Anonymous memory charged to the container: {@code rss} (cgroup v1) or {@code anon} (v2) of its memory.stat. */
    static long rss(Path cgroup) throws IOException {
        for (String line : Files.readAllLines(cgroup.resolve("memory.stat"))) {
            String[] field = line.split(" ");
            if (field[0].equals("rss") || field[0].equals("anon")) {
                return Long.parseLong(field[1].strip());
            }
        }
        throw new IllegalStateException("no rss in " + cgroup);
    }

    static String inspect(String name, String format) {
        return Podman.podman(30, "inspect", "--format", format, name).output().strip();
    }

    static String logs(String name) {
        return Podman.podman(30, "logs", name).output();
    }

    static HttpResponse<String> get(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The status a {@code HEAD} of {@code url} answers. */
    static int head(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).method("HEAD", HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body) {
        try {
            return HTTP.send(request, body);
        } catch (IOException e) {
            throw new IllegalStateException(request.uri() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static int status(String url) {
        try {
            return get(url).statusCode();
        } catch (IllegalStateException e) {
            return -1;
        }
    }

    static long seconds(long startedNanos) {
        return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startedNanos);
    }
}
