package dev.dra.sidecar.resourceapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dra.sidecar.model.DeviceAttribute;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The ResourceSlices seen, by the feed (a list and watch) that brought them, and the devices of each pool as its
 * newest complete generation publishes them. A pool may span several slices: only its newest generation counts, and
 * that generation is complete once {@code spec.pool.resourceSliceCount} of its slices are seen. Not thread-safe: one
 * thread feeds it and asks it.
 */
final class ResourceSlices {

    /** A pool's devices, or why they cannot be told yet. */
    sealed interface Pool permits Complete, Incomplete, Unknown {}

    /** The pool's newest generation, complete: its devices by name, each with its attributes. */
    record Complete(Map<String, Map<String, DeviceAttribute>> devices) implements Pool {}

    /** Some slices of the pool's newest generation are not seen yet (a driver publishing, or a watch catching up). */
    record Incomplete(long generation, int seen, int count) implements Pool {}

    /** No slice of the pool is seen. */
    enum Unknown implements Pool { INSTANCE }

    /** One slice, as much of it as derivation needs. */
    private record Slice(String driver, String pool, long generation, int count,
            Map<String, Map<String, DeviceAttribute>> devices) {}

    private final Map<String, Map<String, Slice>> byFeed = new HashMap<>();
    private Map<PoolKey, Pool> pools = Map.of();

    /** A pool of a driver. */
    record PoolKey(String driver, String pool) {}

    /** Replaces every slice {@code feed} brought with {@code slices} (a list's items). */
    void replace(String feed, Collection<JsonNode> slices) {
        Map<String, Slice> fed = new HashMap<>();
        for (JsonNode slice : slices) {
            fed.put(slice.path("metadata").path("name").asText(), slice(slice));
        }
        byFeed.put(feed, fed);
        pools = null;
    }

    /** A slice {@code feed} reported added or modified. */
    void put(String feed, JsonNode slice) {
        byFeed.computeIfAbsent(feed, f -> new HashMap<>()).put(slice.path("metadata").path("name").asText(), slice(slice));
        pools = null;
    }

    /** A slice {@code feed} reported deleted. */
    void remove(String feed, JsonNode slice) {
        Map<String, Slice> fed = byFeed.get(feed);
        if (fed != null && fed.remove(slice.path("metadata").path("name").asText()) != null) {
            pools = null;
        }
    }

    /** Forgets every slice of {@code feed} (its watch ended for good). */
    void drop(String feed) {
        if (byFeed.remove(feed) != null) {
            pools = null;
        }
    }

    /** Whether a slice {@code feed} brought is of {@code key}'s pool. */
    boolean holdsFrom(String feed, PoolKey key) {
        for (Slice slice : byFeed.getOrDefault(feed, Map.of()).values()) {
            if (slice.driver().equals(key.driver()) && slice.pool().equals(key.pool())) {
                return true;
            }
        }
        return false;
    }

    /** {@code key}'s pool as the slices seen make it now. */
    Pool pool(PoolKey key) {
        return Optional.ofNullable(pools().get(key)).orElse(Unknown.INSTANCE);
    }

    private Map<PoolKey, Pool> pools() {
        if (pools == null) {
            Map<PoolKey, Long> newest = new HashMap<>();
            for (Map<String, Slice> fed : byFeed.values()) {
                for (Slice slice : fed.values()) {
                    newest.merge(new PoolKey(slice.driver(), slice.pool()), slice.generation(), Math::max);
                }
            }
            Map<PoolKey, Integer> seen = new HashMap<>();
            Map<PoolKey, Integer> count = new HashMap<>();
            Map<PoolKey, Map<String, Map<String, DeviceAttribute>>> devices = new HashMap<>();
            for (Map<String, Slice> fed : byFeed.values()) {
                for (Slice slice : fed.values()) {
                    PoolKey key = new PoolKey(slice.driver(), slice.pool());
                    if (slice.generation() == newest.get(key)) {
                        seen.merge(key, 1, Integer::sum);
                        count.merge(key, slice.count(), Math::max);
                        devices.computeIfAbsent(key, k -> new HashMap<>()).putAll(slice.devices());
                    }
                }
            }
            Map<PoolKey, Pool> made = new HashMap<>();
            newest.forEach((key, generation) -> made.put(key, seen.get(key) >= count.get(key)
                    ? new Complete(Map.copyOf(devices.get(key)))
                    : new Incomplete(generation, seen.get(key), count.get(key))));
            pools = made;
        }
        return pools;
    }

    private static Slice slice(JsonNode slice) {
        JsonNode spec = slice.path("spec");
        String driver = spec.path("driver").asText();
        Map<String, Map<String, DeviceAttribute>> devices = new HashMap<>();
        for (JsonNode device : spec.path("devices")) {
            devices.put(device.path("name").asText(), SliceAttributes.of(driver, device.path("attributes")));
        }
        return new Slice(driver, spec.path("pool").path("name").asText(), spec.path("pool").path("generation").asLong(),
                Math.max(1, spec.path("pool").path("resourceSliceCount").asInt(1)), Map.copyOf(devices));
    }
}
