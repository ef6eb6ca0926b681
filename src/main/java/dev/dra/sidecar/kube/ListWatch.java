package dev.dra.sidecar.kube;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Keeps a {@link Listener} up to date with one collection of the API server, on one daemon thread: lists the
 * collection, watches it from the list's {@code resourceVersion} (with bookmarks), and lists again whenever the watch
 * ends. A list or watch that fails, an {@code ERROR} event too, is logged as one warning and listed again after a
 * delay that starts at one second and doubles with each failure in a row up to 30 seconds (a refusal that lasts, such
 * as missing RBAC, costs the API server two requests a minute, not sixty); a watch that heard an event, or ended
 * without failing, starts the count again. A failure that got no answer from the API server is logged at DEBUG only,
 * since its {@link KubeApi} logs the episode in which the API server cannot be reached, once. Objects are keyed by
 * namespace and name ({@link #key}); each is the API server's JSON as it sent it. {@link #close} stops the thread.
 */
public final class ListWatch implements AutoCloseable {

    /**
     * What the list and the watch say, handed over on the watch's thread in the order the API server sent it. What
     * a method throws fails the watch: it is logged, and the collection listed again.
     */
    public interface Listener {

        /** A fresh list: the collection's objects now, by {@link #key}; an object not among them is gone. */
        void listed(Map<String, JsonNode> objects);

        /** An {@code ADDED} or {@code MODIFIED} event: the object as it is now. */
        void changed(String key, JsonNode object);

        /** A {@code DELETED} event: the object as it was last. */
        void deleted(String key, JsonNode object);
    }

    /** How long the first failed list or watch in a row waits before the collection is listed again. */
    static final long FIRST_RETRY_MILLIS = 1000;
    /** The longest wait before the collection is listed again, however many failures came in a row. */
    static final long LONGEST_RETRY_MILLIS = 30_000;
    private static final long LIST_TIMEOUT_SECONDS = 30;

    private final KubeApi api;
    private final String path;
    private final String query;
    private final Listener listener;
    private final Logger log;
    private final String description;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean live;
    private boolean heardEvent;

    private ListWatch(KubeApi api, String path, String query, Listener listener, String threadName, Logger log,
            String description) {
        this.api = api;
        this.path = path;
        this.query = query;
        this.listener = listener;
        this.log = log;
        this.description = description;
        this.thread = new Thread(this::run, threadName);
        thread.setDaemon(true);
    }

    /**
     * Starts listing and watching a collection on a new daemon thread.
     *
     * @param path the collection, such as {@code /api/v1/pods} or {@code /apis/resource.k8s.io/v1/resourceslices}
     * @param query the list's query, URL-encoded and without its {@code ?} ({@code ""} for none), such as
     *     {@link #fieldSelector fieldSelector("spec.nodeName=" + node)}
     * @param listener is told what the list and the watch say
     * @param threadName the name of the thread
     * @param log gets the warning for each failed list or watch that the API server answered (a refusal, an
     *     {@code ERROR} event) or the agent could not make (its token unreadable), or that the listener failed:
     *     {@code Watch of <description> failed, listing again in <delay> ms: <the failure's message>}; a failure
     *     without answer at DEBUG
     * @param description the collection as that warning names it, such as {@code the pods of node n1}
     */
    public static ListWatch start(KubeApi api, String path, String query, Listener listener, String threadName,
            Logger log, String description) {
        ListWatch watch = new ListWatch(api, path, query, listener, threadName, log, description);
        watch.thread.start();
        return watch;
    }

    /** The query that selects the objects whose fields match {@code selector}, such as {@code spec.nodeName=n1}. */
    public static String fieldSelector(String selector) {
        return "fieldSelector=" + URLEncoder.encode(selector, StandardCharsets.UTF_8);
    }

    /** An object's key: {@code namespace/name}, or {@code /name} for an object of no namespace. */
    public static String key(JsonNode object) {
        JsonNode metadata = object.path("metadata");
        return metadata.path("namespace").asText() + "/" + metadata.path("name").asText();
    }

    /**
     * Whether the collection is being watched now: listed, and its watch open since. While it is, what changes on the
     * API server reaches the listener within moments, so asking the API server again tells nothing newer.
     */
    public boolean live() {
        return live;
    }

    /** Stops the thread: a list or an event being handed over still is, and nothing after it. */
    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }

    /** The wait before listing again after {@code failures} failed lists or watches in a row (at least one). */
    static long retryMillis(int failures) {
        return failures > 5 ? LONGEST_RETRY_MILLIS
                : Math.min(LONGEST_RETRY_MILLIS, FIRST_RETRY_MILLIS << (failures - 1));
    }

    private void run() {
        int failures = 0;
        while (running) {
            heardEvent = false;
            try {
                String version = list();
                live = true;
                api.watch(path + "?" + (query.isEmpty() ? "" : query + "&")
                        + "watch=true&allowWatchBookmarks=true&resourceVersion=" + version, this::event);
                live = false;
                failures = 0;
            } catch (InterruptedException e) {
                live = false;
                return;
            } catch (Exception e) {
                live = false;
                if (!running) {
                    return;
                }
                failures = heardEvent ? 1 : failures + 1;
                long delay = retryMillis(failures);
                log.logf(KubeApi.unanswered(e) ? Logger.Level.DEBUG : Logger.Level.WARN,
                        "Watch of %s failed, listing again in %d ms: %s", description, delay, e.getMessage());
                try {
                    TimeUnit.MILLISECONDS.sleep(delay);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    /** Lists the collection, hands it to the listener, and gives the list's resourceVersion. */
    private String list() throws Exception {
        JsonNode list = api.get(query.isEmpty() ? path : path + "?" + query)
                .get(LIST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Map<String, JsonNode> objects = new LinkedHashMap<>();
        list.path("items").forEach(object -> objects.put(key(object), object));
        listener.listed(Collections.unmodifiableMap(objects));
        return list.path("metadata").path("resourceVersion").asText();
    }

    private void event(JsonNode event) {
        String type = event.path("type").asText();
        heardEvent |= !type.equals("ERROR");
        JsonNode object = event.path("object");
        switch (type) {
            case "ADDED", "MODIFIED" -> listener.changed(key(object), object);
            case "DELETED" -> listener.deleted(key(object), object);
            case "ERROR" -> throw new IllegalStateException("watch error: " + object.path("message").asText());
            default -> { } // BOOKMARK: the watch is alive; a new one starts from a fresh list all the same
        }
    }
}
