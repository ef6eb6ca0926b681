package dev.dra.sidecar.snapshot;

import java.util.SortedMap;

/**
 * One claim directory.
 *
 * @param requests keyed by request name, sorted
 * @param served {@code {"name":...,"requests":[merged per request]}}, or the first failing request's failure
 */
public record ClaimEntry(String name, SortedMap<String, RequestEntry> requests, Served served) {}
