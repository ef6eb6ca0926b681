package dev.dra.sidecar.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The tests' private OCI registry, run by {@code src/test/registry/start.sh}: go-containerregistry's registry on
 * 127.0.0.1 and a free port, TLS from a CA made for the run (trusted by nothing else) and HTTP basic authentication.
 * Stopped (its blobs deleted) by {@link #close()} or when this JVM ends.
 */
public final class TestRegistry implements AutoCloseable {

    private static final Path SCRIPTS = Path.of("src/test/registry");
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(30);

    private final ScriptedComponent component;
    /** host:port, as image references and hosts.toml name it. */
    public final String host;
    public final String user;
    public final String password;
    /** The CA that signed the registry's certificate. */
    public final Path ca;
    /** The credentials as a Docker/podman auth file, which helm and cosign read too. */
    public final Path authFile;
    /** The CA in the --cert-dir layout podman wants. */
    public final Path certDir;
    /** The directory holding {@code config.json} (the auth file) for tools that read DOCKER_CONFIG. */
    public final Path dockerConfig;

    private TestRegistry(ScriptedComponent component, Path state) {
        this.component = component;
        Map<String, String> env = component.readEnv("env");
        this.host = env.get("host");
        this.user = env.get("user");
        this.password = env.get("password");
        this.ca = Path.of(env.get("ca"));
        this.authFile = state.resolve("auth.json");
        this.certDir = state.resolve("certs");
        this.dockerConfig = state;
    }

    /**
     * Builds the registry where the cache lacks it and starts it with its state and log in {@code state}.
     *
     * @throws Unavailable when there is no Go toolchain to build it, "{@code whoNeedsIt} need Go ..."
     */
    public static TestRegistry start(String whoNeedsIt, Path state) throws Unavailable {
        Path absolute = state.toAbsolutePath();
        ScriptedComponent.build(whoNeedsIt, "the test registry", SCRIPTS.resolve("build.sh"),
                absolute.resolve("build.log"), BUILD_TIMEOUT);
        return new TestRegistry(ScriptedComponent.start("the test registry", SCRIPTS.resolve("start.sh"), absolute,
                Duration.ofSeconds(60), Duration.ofSeconds(10)), absolute);
    }

    /** The {@code .dockerconfigjson} of a {@code kubernetes.io/dockerconfigjson} Secret for this registry. */
    public String dockerConfigJson() {
        return component.read("auth.json");
    }

    @Override
    public void close() {
        component.close();
    }
}
