package dev.dra.sidecar.resourceapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dra.sidecar.model.DeviceMetadata;
import dev.dra.sidecar.snapshot.DerivedClaims;
import dev.dra.sidecar.snapshot.NodeClaims;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the resource API source knows: the claims of the namespaces it watches, the ResourceSlices of its feeds, which
 * feeds have listed, and which claims are wanted; and what follows from them: the {@link DerivedClaims} to serve, the
 * namespaces to watch and the pools that need a feed of their own. Not thread-safe: the source's one thread feeds it
 * and asks it.
 */
final class ResourceApiState {

    /** The feed of the node's own slices ({@code spec.nodeName=<node>}). */
    static final String NODE_FEED = "node";

    private final ResourceSlices slices = new ResourceSlices();
    private final Map<String, Map<String, AllocatedClaim>> claims = new HashMap<>();
    private final Set<String> listedSliceFeeds = new HashSet<>();
    private List<WantedClaim> wanted = List.of();

    /** The feed of a pool that is not the node's own ({@code nodeSelector}, {@code allNodes}). */
    static String poolFeed(ResourceSlices.PoolKey pool) {
        return "pool " + pool.driver() + "/" + pool.pool();
    }

    void wanted(List<WantedClaim> next) {
        wanted = List.copyOf(next);
    }

    /** The namespaces whose claims are wanted, each to be listed and watched. */
    Set<String> namespaces() {
        Set<String> out = new LinkedHashSet<>();
        wanted.forEach(claim -> out.add(claim.namespace()));
        return out;
    }

    void claimsListed(String namespace, Collection<JsonNode> items) {
        Map<String, AllocatedClaim> listed = new HashMap<>();
        items.forEach(item -> {
            AllocatedClaim claim = AllocatedClaim.of(item);
            listed.put(claim.name(), claim);
        });
        claims.put(namespace, listed);
    }

    void claimChanged(JsonNode item) {
        AllocatedClaim claim = AllocatedClaim.of(item);
        claims.computeIfAbsent(claim.namespace(), n -> new HashMap<>()).put(claim.name(), claim);
    }

    void claimDeleted(JsonNode item) {
        AllocatedClaim claim = AllocatedClaim.of(item);
        Map<String, AllocatedClaim> namespace = claims.get(claim.namespace());
        if (namespace != null) {
            namespace.remove(claim.name());
        }
    }

    /** Forgets a namespace no wanted claim is in any more. */
    void dropNamespace(String namespace) {
        claims.remove(namespace);
    }

    /** Whether {@code namespace}'s claims have been listed. */
    boolean listed(String namespace) {
        return claims.containsKey(namespace);
    }

    void slicesListed(String feed, Collection<JsonNode> items) {
        slices.replace(feed, items);
        listedSliceFeeds.add(feed);
    }

    void sliceChanged(String feed, JsonNode item) {
        slices.put(feed, item);
    }

    void sliceDeleted(String feed, JsonNode item) {
        slices.remove(feed, item);
    }

    void dropSliceFeed(String feed) {
        slices.drop(feed);
        listedSliceFeeds.remove(feed);
    }

    /**
     * The pools that wanted claims hold devices of, that the node's feed (once listed) does not hold: each needs a
     * feed of its own.
     */
    Set<ResourceSlices.PoolKey> foreignPools() {
        Set<ResourceSlices.PoolKey> out = new LinkedHashSet<>();
        if (!listedSliceFeeds.contains(NODE_FEED)) {
            return out;
        }
        for (WantedClaim want : wanted) {
            AllocatedClaim claim = find(want);
            if (claim != null) {
                for (AllocatedClaim.Result result : claim.results()) {
                    ResourceSlices.PoolKey pool = new ResourceSlices.PoolKey(result.driver(), result.pool());
                    if (!slices.holdsFrom(NODE_FEED, pool)) {
                        out.add(pool);
                    }
                }
            }
        }
        return out;
    }

    /** Whether every wanted claim's namespace is listed and every pool its devices are of is settled. */
    boolean settled() {
        for (WantedClaim want : wanted) {
            if (!listed(want.namespace())) {
                return false;
            }
            AllocatedClaim claim = find(want);
            if (claim != null) {
                for (AllocatedClaim.Result result : claim.results()) {
                    if (pool(new ResourceSlices.PoolKey(result.driver(), result.pool()))
                            instanceof ResourceSlices.Incomplete) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** The derived metadata of every wanted claim that is allocated. */
    DerivedClaims derive() {
        Map<NodeClaims.Scope, DerivedClaims.Claim> out = new HashMap<>();
        for (WantedClaim want : wanted) {
            AllocatedClaim claim = find(want);
            if (claim == null || claim.results().isEmpty()) {
                continue;
            }
            SortedMap<String, SortedMap<String, DeviceMetadata>> requests = new TreeMap<>();
            ClaimDerivation.derive(claim, this::pool).forEach((request, drivers) -> {
                if (want.wants(request)) {
                    requests.put(request, Collections.unmodifiableSortedMap(drivers));
                }
            });
            if (!requests.isEmpty()) {
                out.merge(new NodeClaims.Scope(want.kind(), claim.namespace(), claim.name()),
                        new DerivedClaims.Claim(want.directory(), Collections.unmodifiableSortedMap(requests)),
                        ResourceApiState::union);
            }
        }
        return out.isEmpty() ? DerivedClaims.NONE : new DerivedClaims(Map.copyOf(out));
    }

    private AllocatedClaim find(WantedClaim want) {
        Map<String, AllocatedClaim> namespace = claims.getOrDefault(want.namespace(), Map.of());
        if (want.claim() != null) {
            return namespace.get(want.claim());
        }
        for (AllocatedClaim candidate : namespace.values()) {
            if (want.is(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** A pool as it stands, or {@link ResourceSlices.Incomplete} while the feeds that could hold it have not listed. */
    private ResourceSlices.Pool pool(ResourceSlices.PoolKey key) {
        ResourceSlices.Pool pool = slices.pool(key);
        if (pool != ResourceSlices.Unknown.INSTANCE) {
            return pool;
        }
        boolean settled = listedSliceFeeds.contains(NODE_FEED) && listedSliceFeeds.contains(poolFeed(key));
        return settled ? pool : new ResourceSlices.Incomplete(0, 0, 1);
    }

    /** Two wants of one claim (two pods, or two containers' requests): the requests of both. */
    private static DerivedClaims.Claim union(DerivedClaims.Claim a, DerivedClaims.Claim b) {
        SortedMap<String, SortedMap<String, DeviceMetadata>> requests = new TreeMap<>(a.requests());
        requests.putAll(b.requests());
        return new DerivedClaims.Claim(a.directory(), Collections.unmodifiableSortedMap(requests));
    }
}
