package dev.dra.sidecar.snapshot;

import java.util.Locale;

/** Where one driver's metadata of a request comes from. */
public enum MetadataSource {
    /** The file the driver wrote, as the container sees it (or, in node mode, as its CDI spec names it). */
    FILE,
    /**
     * No file: derived from the resource API (the claim's allocation and status, the driver's ResourceSlices). It
     * lacks what a driver writes only into files, and {@code networkData} where the driver publishes none in the
     * claim's status.
     */
    RESOURCE_API;

    /** As the API shows it: {@code file} or {@code resource-api}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The labels of {@code sources}, each once, in the order given, comma-separated: a header's value; {@code null}
     * for none.
     */
    public static String labels(Iterable<MetadataSource> sources) {
        StringBuilder out = new StringBuilder();
        java.util.Set<MetadataSource> seen = java.util.EnumSet.noneOf(MetadataSource.class);
        for (MetadataSource source : sources) {
            if (seen.add(source)) {
                out.append(out.isEmpty() ? "" : ", ").append(source.label());
            }
        }
        return out.isEmpty() ? null : out.toString();
    }
}
