package dev.dra.sidecar.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ListWatch} against a scripted API server on the loopback address: the requests it makes, what its listener
 * hears, the warning and the retry after a failed watch, the growing wait after refusals in a row, and that
 * {@link ListWatch#close} ends it.
 */
class ListWatchTest {

    private static final String LOGGER = "dev.dra.sidecar.kube.ListWatchTest";
    private static final String LIST = "/api/v1/pods?fieldSelector=spec.nodeName%3Dn1";

    /** A request the API server got, and when. */
    private record Request(String uri, long nanos) {}

    private final BlockingQueue<Request> requests = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> heard = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> warnings = new LinkedBlockingQueue<>();
    private final AtomicInteger lists = new AtomicInteger();
    /** How many lists from now on the API server refuses (403), as it does a service account without RBAC. */
    private final AtomicInteger refusals = new AtomicInteger();
    private volatile long warnedNanos;
    private final BlockingQueue<List<String>> watches = new LinkedBlockingQueue<>();
    private final CountDownLatch lastWatchEnds = new CountDownLatch(1);
    private final Handler warningLog = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnedNanos = System.nanoTime();
                warnings.add(record.getParameters() == null ? record.getMessage()
                        : String.format(record.getMessage(), record.getParameters()));
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };
    private ExecutorService handlers;
    private HttpServer server;

    @BeforeEach
    void startServer() throws IOException {
        handlers = Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r, "fake-api-server");
            thread.setDaemon(true);
            return thread;
        });
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(handlers);
        server.createContext("/api/v1/pods", this::answer);
        server.start();
        java.util.logging.Logger.getLogger(LOGGER).addHandler(warningLog);
    }

    @AfterEach
    void stopServer() {
        java.util.logging.Logger.getLogger(LOGGER).removeHandler(warningLog);
        lastWatchEnds.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }

    @Test
    void listsWatchesFromTheListsVersionAndListsAgainWhenTheWatchEndsOrFails(@TempDir Path dir) throws Exception {
        watches.add(List.of(event("ADDED", "c", "3"), "{\"type\":\"BOOKMARK\",\"object\":{\"metadata\":"
                + "{\"resourceVersion\":\"9\"}}}", event("MODIFIED", "a", "1"), event("DELETED", "b", "2")));
        watches.add(List.of("{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"message\":\"too old resource "
                + "version\"}}"));
        ListWatch watch = startWatch(dir);
        try {
            assertEquals(LIST, next(requests).uri());
            assertEquals("listed [ns/a, ns/b] on list-watch-test, a daemon", next(heard));
            assertEquals(LIST + "&watch=true&allowWatchBookmarks=true&resourceVersion=1", next(requests).uri());
            assertEquals("changed ns/c", next(heard));
            assertEquals("changed ns/a", next(heard));
            assertEquals("deleted ns/b 2", next(heard));

            // the watch ended: listed again at once, and watched from the new list's version
            assertEquals(LIST, next(requests).uri());
            assertEquals("listed [ns/a, ns/b] on list-watch-test, a daemon", next(heard));
            assertEquals(LIST + "&watch=true&allowWatchBookmarks=true&resourceVersion=2", next(requests).uri());

            // the watch failed: one warning, and listed again a second later
            assertEquals("Watch of the pods of node n1 failed, listing again in 1000 ms: watch error: too old "
                    + "resource version", next(warnings));
            Request relist = next(requests);
            assertEquals(LIST, relist.uri());
            assertTrue(relist.nanos() - warnedNanos >= TimeUnit.MILLISECONDS.toNanos(1000), "listed again too soon");
            assertEquals(LIST + "&watch=true&allowWatchBookmarks=true&resourceVersion=3", next(requests).uri());
        } finally {
            watch.close();
        }
        lastWatchEnds.countDown();
        assertNull(requests.poll(1500, TimeUnit.MILLISECONDS), "a request after close");
        assertEquals(List.of(), List.copyOf(warnings));
    }

    @Test
    void listsAgainAfterAWaitThatDoublesWithEachRefusalInARowAndStartsAgainOnceAWatchHeardAnEvent(@TempDir Path dir)
            throws Exception {
        refusals.set(2);
        watches.add(List.of(event("ADDED", "c", "3"), "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\","
                + "\"message\":\"too old resource version\"}}"));
        ListWatch watch = startWatch(dir);
        try {
            Request refused = next(requests);
            assertTrue(next(warnings).startsWith("Watch of the pods of node n1 failed, listing again in 1000 ms: "));
            Request refusedAgain = next(requests);
            assertTrue(refusedAgain.nanos() - refused.nanos() >= TimeUnit.MILLISECONDS.toNanos(1000), "too soon");
            assertTrue(next(warnings).startsWith("Watch of the pods of node n1 failed, listing again in 2000 ms: "));
            Request listed = next(requests);
            assertEquals(LIST, listed.uri());
            assertTrue(listed.nanos() - refusedAgain.nanos() >= TimeUnit.MILLISECONDS.toNanos(2000), "too soon");
            assertEquals("listed [ns/a, ns/b] on list-watch-test, a daemon", next(heard));
            assertEquals("changed ns/c", next(heard));
            // the watch heard an event before it failed: the next wait is the first one again
            assertEquals("Watch of the pods of node n1 failed, listing again in 1000 ms: watch error: too old "
                    + "resource version", next(warnings));
        } finally {
            watch.close();
        }
    }

    @Test
    void theWaitBeforeListingAgainDoublesUpToHalfAMinute() {
        assertEquals(List.of(1000L, 2000L, 4000L, 8000L, 16000L, 30000L, 30000L, 30000L),
                List.of(1, 2, 3, 4, 5, 6, 7, 1000).stream().map(ListWatch::retryMillis).toList());
    }

    /** A watch of the pods of node n1 on the scripted API server, with a client whose files are made in {@code dir}. */
    private ListWatch startWatch(Path dir) throws IOException {
        Path token = Files.writeString(dir.resolve("token"), "t0ken\n");
        Path ca = Files.writeString(dir.resolve("ca.crt"), "");
        KubeApi api = new KubeApi(URI.create("http://127.0.0.1:" + server.getAddress().getPort()), token, ca);
        return ListWatch.start(api, "/api/v1/pods", ListWatch.fieldSelector("spec.nodeName=n1"), new Noting(),
                "list-watch-test", Logger.getLogger(LOGGER), "the pods of node n1");
    }

    /**
     * Lists hold ns/a and ns/b, at resourceVersion 1, 2, 3, ..., once {@link #refusals} are used up; each watch
     * streams the next scripted events.
     */
    private void answer(HttpExchange exchange) throws IOException {
        requests.add(new Request(exchange.getRequestURI().toString(), System.nanoTime()));
        try (OutputStream body = exchange.getResponseBody()) {
            if (refusals.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                byte[] bytes = ("{\"kind\":\"Status\",\"status\":\"Failure\",\"message\":\"pods is forbidden\","
                        + "\"reason\":\"Forbidden\",\"code\":403}").getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(403, bytes.length);
                body.write(bytes);
                return;
            }
            if (!exchange.getRequestURI().getRawQuery().contains("watch=true")) {
                String list = "{\"kind\":\"PodList\",\"metadata\":{\"resourceVersion\":\"" + lists.incrementAndGet()
                        + "\"},\"items\":[" + pod("a", "1") + "," + pod("b", "2") + "]}";
                byte[] bytes = list.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, bytes.length);
                body.write(bytes);
                return;
            }
            exchange.sendResponseHeaders(200, 0);
            List<String> events = watches.poll();
            if (events == null) {
                lastWatchEnds.await(30, TimeUnit.SECONDS);
                return;
            }
            for (String event : events) {
                body.write((event + "\n").getBytes(StandardCharsets.UTF_8));
                body.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            exchange.close();
        }
    }

    private static String pod(String name, String uid) {
        return "{\"metadata\":{\"namespace\":\"ns\",\"name\":\"" + name + "\",\"uid\":\"" + uid + "\"}}";
    }

    private static String event(String type, String name, String uid) {
        return "{\"type\":\"" + type + "\",\"object\":" + pod(name, uid) + "}";
    }

    private static <T> T next(BlockingQueue<T> queue) throws InterruptedException {
        T next = queue.poll(10, TimeUnit.SECONDS);
        assertTrue(next != null, "nothing within 10 s");
        return next;
    }

    /** Notes what it hears, in words. */
    private final class Noting implements ListWatch.Listener {

        @Override
        public void listed(Map<String, JsonNode> objects) {
            Thread thread = Thread.currentThread();
            heard.add("listed " + new ArrayList<>(objects.keySet()) + " on " + thread.getName()
                    + (thread.isDaemon() ? ", a daemon" : ""));
        }

        @Override
        public void changed(String key, JsonNode object) {
            heard.add("changed " + key);
        }

        @Override
        public void deleted(String key, JsonNode object) {
            heard.add("deleted " + key + " " + object.path("metadata").path("uid").asText());
        }
    }
}
