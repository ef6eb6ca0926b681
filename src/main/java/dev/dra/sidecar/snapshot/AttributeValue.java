package dev.dra.sidecar.snapshot;

/**
 * One attribute value, pre-encoded both ways.
 *
 * @param json the typed value ({@code {"string":"x"}})
 * @param text the bare value for {@code Accept: text/plain}, one line per list item, ending in a newline
 */
public record AttributeValue(Served.Available json, Served.Available text) {}
