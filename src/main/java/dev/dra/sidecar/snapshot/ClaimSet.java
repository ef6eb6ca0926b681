package dev.dra.sidecar.snapshot;

import java.util.SortedMap;

/**
 * All claims of one kind.
 *
 * @param claims keyed by claim name, sorted
 * @param index {@code {"claims":[{"name":...,"requests":[...]}]}}
 */
public record ClaimSet(SortedMap<String, ClaimEntry> claims, Served.Available index) {}
