package dev.dra.sidecar.snapshot;

/** The two ways a pod references a claim, each with its directory under the metadata root and its API path. */
public enum ClaimKind {
    /** {@code pod.spec.resourceClaims[].resourceClaimName}: keyed by the ResourceClaim's name. */
    CLAIM(ClaimKind.CLAIMS, "resourceclaims"),
    /** {@code pod.spec.resourceClaims[].resourceClaimTemplateName}: keyed by the pod's claim name. */
    TEMPLATE_CLAIM(ClaimKind.TEMPLATE_CLAIMS, "resourceclaimtemplates");

    /** {@link #CLAIM}'s API segment, as a constant for annotations (the API's {@code @Path}). */
    public static final String CLAIMS = "claims";
    /** {@link #TEMPLATE_CLAIM}'s API segment, as a constant for annotations (the API's {@code @Path}). */
    public static final String TEMPLATE_CLAIMS = "template-claims";

    private final String apiSegment;
    private final String directory;

    ClaimKind(String apiSegment, String directory) {
        this.apiSegment = apiSegment;
        this.directory = directory;
    }

    /** First path segment of the HTTP API: {@code claims} or {@code template-claims}. */
    public String apiSegment() {
        return apiSegment;
    }

    /** Directory under the metadata root: {@code resourceclaims} or {@code resourceclaimtemplates}. */
    public String directory() {
        return directory;
    }

    public static ClaimKind ofApiSegment(String segment) {
        for (ClaimKind kind : values()) {
            if (kind.apiSegment.equals(segment)) {
                return kind;
            }
        }
        return null;
    }
}
