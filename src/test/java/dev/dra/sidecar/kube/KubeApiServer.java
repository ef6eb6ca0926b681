package dev.dra.sidecar.kube;

import dev.dra.sidecar.testsupport.ApiServerOutage;
import dev.dra.sidecar.testsupport.ScriptedComponent;
import dev.dra.sidecar.testsupport.Unavailable;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real kube-apiserver with its etcd, run by {@code src/test/kube-apiserver/start.sh} on 127.0.0.1 (free ports,
 * temporary data, generated certificates), the binaries built once by {@code build.sh} into a cache that later
 * runs reuse. Output goes to {@code target/kube-apiserver/} (build.log, start.log, kube-apiserver.log, etcd.log).
 *
 * <p>{@link #close()} stops both processes (the script's trap); should this JVM end without closing it, the
 * script notices that its parent is gone and stops them itself. {@link #stopForAWhile()} makes an outage: the API
 * server stopped, and started again later at the same address with the same certificates, keys and etcd.
 */
final class KubeApiServer implements AutoCloseable {

    static final Path SCRIPTS = Path.of("src/test/kube-apiserver");
    static final Path STATE = Path.of("target/kube-apiserver");
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(60);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);


    private final ScriptedComponent component;
    private final Path state;
    final String kubeconfig;

    private KubeApiServer(ScriptedComponent component, Path state) {
        this.component = component;
        this.state = state;
        this.kubeconfig = component.read("kubeconfig");
    }

    /**
     * Builds the binaries if the cache does not have them yet (a first build may take up to {@code BUILD_TIMEOUT}),
     * then starts the API server and waits until it is ready.
     *
     * @throws Unavailable when this machine has no Go toolchain
     * @throws IllegalStateException when the build or the start fails, with where to look
     */
    static KubeApiServer start() throws Unavailable {
        return start(STATE);
    }

    /**
     * As {@link #start()}, with its state and logs in {@code state}: a server of its own beside the run's shared
     * one, for a test that stops it or needs a cluster no other class touches.
     */
    static KubeApiServer start(Path state) throws Unavailable {
        ScriptedComponent.build("the Kubernetes API server tests", "kube-apiserver and etcd",
                SCRIPTS.resolve("build.sh"), state.resolve("build.log"), BUILD_TIMEOUT);
        return new KubeApiServer(ScriptedComponent.start("kube-apiserver", SCRIPTS.resolve("start.sh"), state,
                START_TIMEOUT, STOP_GRACE), state);
    }

    /**
     * Stops kube-apiserver (etcd keeps running) and returns once it is stopped: connections to it are refused. The
     * returned action starts it again at the same address, with the same certificates, keys and data, and returns
     * once it answers {@code /readyz}.
     */
    Runnable stopForAWhile() {
        return ApiServerOutage.begin(state, null);
    }

    /** Stops the API server and etcd and waits for them (SIGTERM to the script, then SIGKILL to the whole tree). */
    @Override
    public void close() {
        component.close();
    }
}
