package dev.dra.sidecar.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Reachability}: an episode in which the API server cannot be reached is logged once when it starts (WARN)
 * and once when it ends (INFO, with how long it lasted), whatever number of calls fail in between; and a bounded
 * {@link KubeApi} call to an API server that does not answer fails within its bound, counted as unanswered.
 */
class ReachabilityTest {

    private static final String LOGGER = "dev.dra.sidecar.kube.ReachabilityTest";

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            lines.add(record.getLevel() + " " + (record.getParameters() == null ? record.getMessage()
                    : String.format(record.getMessage(), record.getParameters())));
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    /** A clock the test moves. */
    private static final class Moved extends Clock {
        Instant now = Instant.parse("2030-01-01T00:00:00Z");

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @BeforeEach
    void listen() {
        java.util.logging.Logger.getLogger(LOGGER).addHandler(handler);
    }

    @AfterEach
    void stopListening() {
        java.util.logging.Logger.getLogger(LOGGER).removeHandler(handler);
    }

    @Test
    void anEpisodeIsLoggedOnceWhenItStartsAndOnceWhenItEnds() {
        Moved clock = new Moved();
        Reachability reachability = new Reachability("https://10.96.0.1:443", clock, Logger.getLogger(LOGGER));
        reachability.answered();
        assertEquals(List.of(), lines, "nothing while the API server answers");

        reachability.unanswered("GET /api/v1/pods?fieldSelector=spec.nodeName%3Dn1",
                new ConnectException("Connection refused"));
        for (int i = 0; i < 59; i++) {
            clock.now = clock.now.plusSeconds(1);
            reachability.unanswered("watch /api/v1/pods", new ConnectException("Connection refused"));
        }
        assertFalse(reachability.reachable());
        clock.now = clock.now.plusMillis(2_345);
        reachability.answered();
        reachability.answered();
        assertTrue(reachability.reachable());
        assertEquals(List.of("WARN The API server https://10.96.0.1:443 cannot be reached (since "
                + "2030-01-01T00:00:00Z; GET /api/v1/pods?fieldSelector=spec.nodeName%3Dn1: ConnectException "
                + "Connection refused); going on with what is held until it answers again",
                "INFO The API server https://10.96.0.1:443 answers again, after 61.3 s in which it could not be "
                        + "reached (since 2030-01-01T00:00:00Z; 60 calls got no answer)"), lines);
    }

    @Test
    void aBoundedCallToAnApiServerThatDoesNotAnswerFailsWithinItsBound(@TempDir Path dir) throws Exception {
        HttpServer silent = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        CountDownLatch release = new CountDownLatch(1);
        silent.createContext("/", exchange -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        silent.setExecutor(Executors.newCachedThreadPool());
        silent.start();
        try {
            KubeApi api = new KubeApi(URI.create("http://127.0.0.1:" + silent.getAddress().getPort()),
                    Files.writeString(dir.resolve("token"), "t"), Files.writeString(dir.resolve("ca.crt"), ""));
            long started = System.nanoTime();
            CompletionException failure = assertThrows(CompletionException.class,
                    () -> assertTimeoutPreemptively(Duration.ofSeconds(5),
                            () -> api.get("/api/v1/namespaces/ns/pods/p", Duration.ofMillis(300)).join()));
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertTrue(failure.getCause() instanceof TimeoutException, failure.toString());
            assertEquals("GET /api/v1/namespaces/ns/pods/p: no answer within 300 ms", failure.getCause().getMessage());
            assertTrue(tookMillis < 2000, "took " + tookMillis + " ms");
            assertTrue(KubeApi.unanswered(failure));
            assertFalse(KubeApi.unanswered(new CompletionException(new KubeApi.Failed(403, "GET /x: HTTP 403"))));
            assertFalse(KubeApi.unanswered(new UncheckedIOException("cannot read the agent's token /t",
                    new IOException("gone"))));
        } finally {
            release.countDown();
            silent.stop(0);
        }
    }
}
