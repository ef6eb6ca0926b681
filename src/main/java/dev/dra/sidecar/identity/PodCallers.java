package dev.dra.sidecar.identity;

import dev.dra.sidecar.kube.KubeApi;
import dev.dra.sidecar.snapshot.NodeClaims;
import dev.dra.sidecar.store.MetadataStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Node mode: turns a request's token and peer address into the caller's {@link PodView} (the pod's, or the
 * container's its token's audience names: {@link ViewAudience}), or a {@link Refusal}.
 * The token is verified ({@link PodTokens}); its pod must be on this node with the UID the token is bound to
 * ({@link NodePods}), must not share the node's network ({@code hostNetwork}), and the connection must come from
 * that pod's own address. With the issuer's keys held and the pod known from the watch, nothing is asked of the API
 * server. A pod the agent has not heard of is fetched (within the lookup timeout, else {@code UNAVAILABLE}); one
 * whose claims it does not know all of yet, or whose address does not match, is looked up again then (the CDI specs
 * from disk; its pod object from the API server only while the watch is not open, since an open watch brings any
 * change at once), at most once a second per pod, so that its first request is answered rather than refused; such a
 * look-up that fails leaves the pod as the watch has it.
 */
public final class PodCallers implements AutoCloseable {

    private static final long FRESH_SPACING_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final String BEARER = "bearer ";
    private static final long ADDRESS_POLL_MILLIS = 100;
    /** How long a pod without an address is looked at again before it is refused. */
    static final long ADDRESS_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final MetadataStore store;
    private final PodTokens tokens;
    private final NodePods pods;
    private final Map<String, PodView> views = new ConcurrentHashMap<>();
    private final Map<String, Long> lookedUp = new ConcurrentHashMap<>();
    /** Requests waiting for a pod's address ({@link #addressed}): each is woken at the next change of the pods known. */
    private final Set<CompletableFuture<Void>> awaitingChange = ConcurrentHashMap.newKeySet();

    private final Timer addressWait;

    PodCallers(NodeConfig config, MetadataStore store, KubeApi api, NodePods pods, MeterRegistry registry) {
        this.store = store;
        this.tokens = new PodTokens(api, config);
        this.pods = pods;
        this.addressWait = Timer.builder("dra.node.address.wait")
                .description("Requests that came before the agent knew their pod's address, and how long each waited "
                        + "for it")
                .register(registry);
        pods.onChange(this::podsChanged);
    }

    /**
     * The calling pod's view.
     *
     * @param authorization the request's {@code Authorization} header, or {@code null}
     * @param peer the address the connection comes from
     */
    public CompletableFuture<PodView> caller(String authorization, String peer) {
        String trimmed = authorization == null ? "" : authorization.strip();
        if (trimmed.length() <= BEARER.length() || !trimmed.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return CompletableFuture.failedFuture(new Refusal(Refusal.Reason.MISSING_TOKEN,
                    "no Authorization: Bearer token; send the pod's projected service account token"));
        }
        String token = trimmed.substring(BEARER.length()).strip();
        return tokens.pod(token).thenCompose(bound -> {
            if (!bound.nodeName().isEmpty() && !bound.nodeName().equals(pods.node())) {
                throw notOnNode(bound, "it runs on node " + bound.nodeName());
            }
            return pod(bound, false).thenCompose(pod -> {
                boolean stale = !pod.unmapped().isEmpty() || !hasAddress(pod, peer);
                return stale && !pods.watching() && spaced(pod.uid()) ? fresh(bound, pod)
                        : CompletableFuture.completedFuture(pod);
            }).thenCompose(pod -> addressed(bound, pod))
                    .thenApply(pod -> new Bound(bound, pod));
        }).thenCompose(called -> {
            PodInfo pod = called.pod();
            if (pod.hostNetwork()) {
                throw new Refusal(Refusal.Reason.PEER_NOT_ALLOWED, "pod " + pod.namespace() + "/" + pod.name()
                        + " uses the node's network (hostNetwork): it cannot be told apart from the node");
            }
            if (!hasAddress(pod, peer)) {
                throw new Refusal(Refusal.Reason.PEER_NOT_ALLOWED, "the connection does not come from the address "
                        + "of pod " + pod.namespace() + "/" + pod.name());
            }
            String container = called.token().container();
            if (!container.isEmpty() && pod.container(container) == null) {
                throw new Refusal(Refusal.Reason.INVALID_TOKEN, "the token's audience names container " + container
                        + ", which pod " + pod.namespace() + "/" + pod.name() + " does not have");
            }
            PodView view = view(pod, container);
            if (view.complete() || !spaced("files/" + pod.uid())) {
                return CompletableFuture.completedFuture(view);
            }
            return store.refreshNow().thenApply(refreshed -> view(pod, container));
        });
    }

    /** {@code view} made again from the claims published since, or itself when none were. */
    public PodView current(PodView view) {
        return view.claims() == store.nodeClaims() ? view : view(view.pod(), view.container());
    }

    /** Pods known now, for metrics and tests. */
    public int pods() {
        return pods.size();
    }

    @Override
    public void close() {
        tokens.close();
    }

    /** {@code known} looked up again from the API server; {@code known} itself when that cannot be done now. */
    private CompletableFuture<PodInfo> fresh(BoundPod bound, PodInfo known) {
        return pod(bound, true).handle((pod, failure) -> {
            if (failure == null) {
                return CompletableFuture.completedFuture(pod);
            }
            return KubeApi.cause(failure) instanceof Refusal refusal && refusal.reason() == Refusal.Reason.UNAVAILABLE
                    ? CompletableFuture.completedFuture(known) : CompletableFuture.<PodInfo>failedFuture(failure);
        }).thenCompose(pod -> pod);
    }

    private CompletableFuture<PodInfo> pod(BoundPod bound, boolean fresh) {
        return pods.pod(bound.namespace(), bound.name(), bound.uid(), fresh).handle((pod, failure) -> {
            if (failure != null) {
                throw new Refusal(Refusal.Reason.UNAVAILABLE, "the pod cannot be looked up now: "
                        + KubeApi.cause(failure).getMessage());
            }
            if (pod == null || !pod.uid().equals(bound.uid())) {
                throw notOnNode(bound, "it is gone");
            }
            if (!pods.node().equals(pod.nodeName())) {
                throw notOnNode(bound, pod.nodeName().isEmpty() ? "it is not scheduled yet"
                        : "it runs on node " + pod.nodeName());
            }
            return pod;
        });
    }

    /** {@code pod} once its status has an address ({@link #addressed(BoundPod, PodInfo, long)}); a wait is timed. */
    private CompletableFuture<PodInfo> addressed(BoundPod bound, PodInfo pod) {
        if (!pod.addresses().isEmpty()) {
            return CompletableFuture.completedFuture(pod);
        }
        long started = System.nanoTime();
        return addressed(bound, pod, started + ADDRESS_WAIT_NANOS).whenComplete((addressed, failure) ->
                addressWait.record(System.nanoTime() - started, TimeUnit.NANOSECONDS));
    }

    /**
     * {@code pod} once its status has an address. A container can run, and ask, before its kubelet has reported the
     * pod's address to the API server; such a pod is looked at again at each change of the pods known (the watch
     * brings the address the moment the API server has it) and at least every {@value #ADDRESS_POLL_MILLIS} ms (from
     * the API server at most once a second while the watch is not open), until {@code deadlineNanos} (10 s after the
     * request came; a look-up under way then is waited for, within the lookup timeout), rather than refused for an
     * address it will have in a moment. A pod with an address is never waited for.
     */
    private CompletableFuture<PodInfo> addressed(BoundPod bound, PodInfo pod, long deadlineNanos) {
        if (!pod.addresses().isEmpty() || System.nanoTime() - deadlineNanos >= 0) {
            return CompletableFuture.completedFuture(pod);
        }
        CompletableFuture<Void> change = new CompletableFuture<>();
        awaitingChange.add(change);
        change.whenComplete((done, failure) -> awaitingChange.remove(change));
        change.completeOnTimeout(null, ADDRESS_POLL_MILLIS, TimeUnit.MILLISECONDS);
        return change.thenCompose(waited -> !pods.watching() && spaced(pod.uid()) ? fresh(bound, pod) : pod(bound, false))
                .thenCompose(next -> addressed(bound, next, deadlineNanos));
    }

    /** Wakes the requests waiting for an address, off the thread that changed the pods (the watch's). */
    private void podsChanged() {
        for (CompletableFuture<Void> waiting : awaitingChange) {
            waiting.completeAsync(() -> null);
        }
    }

    private Refusal notOnNode(BoundPod bound, String why) {
        return new Refusal(Refusal.Reason.POD_NOT_ON_NODE, "the token's pod " + bound.namespace() + "/" + bound.name()
                + " is not a pod of node " + pods.node() + ": " + why);
    }

    /** The view of {@code container} of {@code pod} ({@code ""}: the pod's), kept until the pod or the claims change. */
    private PodView view(PodInfo pod, String container) {
        NodeClaims claims = store.nodeClaims();
        String key = pod.uid() + "/" + container;
        PodView known = views.get(key);
        if (known != null && known.pod() == pod && known.claims() == claims) {
            return known;
        }
        PodView view = new PodView(pod, container, claims);
        if (views.size() > 8 * Math.max(pods.size(), 110)) {
            views.clear(); // pods gone since: their views are made again if they ask
        }
        views.put(key, view);
        return view;
    }

    /** A verified token and the pod it is bound to, as known now. */
    private record Bound(BoundPod token, PodInfo pod) {}

    /** True, and noted, when {@code key} was not looked up again within the last second. */
    private boolean spaced(String key) {
        long now = System.nanoTime();
        Long last = lookedUp.get(key);
        if (last != null && now - last < FRESH_SPACING_NANOS) {
            return false;
        }
        if (lookedUp.size() > 8 * Math.max(pods.size(), 110)) {
            lookedUp.clear();
        }
        lookedUp.put(key, now);
        return true;
    }

    private static boolean hasAddress(PodInfo pod, String peer) {
        InetAddress from = literal(peer);
        for (String address : pod.addresses()) {
            if (from != null && from.equals(literal(address))) {
                return true;
            }
        }
        return false;
    }

    /** An IP address literal as an address (never a DNS lookup), or {@code null} when it is none. */
    private static InetAddress literal(String address) {
        if (address == null || address.isEmpty() || !address.matches("[0-9a-fA-F.:\\[\\]%]+")) {
            return null;
        }
        try {
            return InetAddress.getByName(address);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
