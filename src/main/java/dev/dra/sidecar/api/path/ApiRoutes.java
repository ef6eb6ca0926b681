package dev.dra.sidecar.api.path;

import dev.dra.sidecar.model.ClaimIndex;
import dev.dra.sidecar.snapshot.ClaimKind;
import java.util.List;
import java.util.Optional;

/**
 * Every path of the API, written once. The JAX-RS resources take their {@code @Path} from the constants;
 * {@link ClaimRoute} and {@link PodRoute} are the same table as data. {@link #match} finds what a request path names
 * below a claim kind: the request pipeline takes the URI template and the claim from it, and the fast read path what
 * to answer. {@link ClaimRoute#template} is the URI template of the OpenAPI document and of the {@code uri} label of
 * HTTP server metrics, and {@link ClaimRoute#operationId} the public operationId.
 *
 * <p>A new route under both claim kinds: a path constant here, a {@link ClaimRoute} constant naming it, and the
 * resource method in {@code resource.ClaimResources} with {@code @Path} of that constant.
 */
public final class ApiRoutes {

    /** Claims referenced by name. */
    public static final String CLAIMS = "/" + ClaimKind.CLAIMS;
    /** Claims generated from a ResourceClaimTemplate. */
    public static final String TEMPLATE_CLAIMS = "/" + ClaimKind.TEMPLATE_CLAIMS;
    /** Node mode: the calling pod's extended resources. */
    public static final String EXTENDED_RESOURCES = "/extended-resources";
    /** Below {@link #EXTENDED_RESOURCES}: a resource name has a '/', so its parameter takes the rest of the path. */
    public static final String EXTENDED_RESOURCE = "{container}/{resource: .+}";
    /** Stream validation for driver authors. */
    public static final String VALIDATE = "/validate";
    /** Every device this container sees, whatever the claim; the claim indexes link to it. */
    public static final String DEVICES = ClaimIndex.DEVICES;
    /** Below {@link #DEVICES}: one attribute of each of those devices. */
    public static final String DEVICES_ATTRIBUTE = "attributes/{attribute: .+}";

    // Below a claim kind's path, as JAX-RS templates.
    public static final String CLAIM = "{claim}";
    public static final String REQUEST = CLAIM + "/{request}";
    public static final String DRIVER = REQUEST + "/drivers/{driver}";
    public static final String VALIDATION = REQUEST + "/validation";
    /** The attribute may be a qualified name with '/', so its parameter takes the rest of the path. */
    public static final String ATTRIBUTE = REQUEST + "/devices/{device}/attributes/{attribute: .+}";
    /** One attribute of every device of the request, in serving order. */
    public static final String REQUEST_ATTRIBUTE = REQUEST + "/attributes/{attribute: .+}";
    /** The request's metadata as shell variable assignments. */
    public static final String ENV = REQUEST + "/env";

    private ApiRoutes() {}

    /** The GET routes below each claim kind's path. */
    public enum ClaimRoute {
        INDEX("", "list%ss"),
        CLAIM(ApiRoutes.CLAIM, "get%s"),
        REQUEST(ApiRoutes.REQUEST, "get%sRequest"),
        DRIVER(ApiRoutes.DRIVER, "get%sDriver"),
        VALIDATION(ApiRoutes.VALIDATION, "get%sValidation"),
        ATTRIBUTE(ApiRoutes.ATTRIBUTE, "get%sAttribute"),
        REQUEST_ATTRIBUTE(ApiRoutes.REQUEST_ATTRIBUTE, "get%sRequestAttribute"),
        ENV(ApiRoutes.ENV, "get%sEnv");

        private final PathTemplate path;
        private final String operationId;

        ClaimRoute(String jaxRsPath, String operationId) {
            this.path = PathTemplate.of(jaxRsPath);
            this.operationId = operationId;
        }

        /** The URI template, as OpenAPI and the metrics write it: {@code /claims/{claim}/{request}}. */
        public String template(ClaimKind kind) {
            return path.below(prefix(kind));
        }

        /** The public operationId, one per kind: {@code getClaimRequest}, {@code getTemplateClaimRequest}. */
        public String operationId(ClaimKind kind) {
            return operationId.formatted(kind == ClaimKind.CLAIM ? "Claim" : "TemplateClaim");
        }

        /**
         * Whether the answer is derived from a file's content, so it can be stale or a decode failure. A validation
         * report is served whatever the files hold.
         */
        public boolean readsFiles() {
            return this != INDEX && this != VALIDATION;
        }
    }

    /** The GET routes of the pod-wide device list, which no claim kind scopes. */
    public enum PodRoute {
        DEVICES("", "listDevices"),
        DEVICES_ATTRIBUTE(ApiRoutes.DEVICES_ATTRIBUTE, "listDevicesAttribute");

        private final PathTemplate path;
        private final String operationId;

        PodRoute(String jaxRsPath, String operationId) {
            this.path = PathTemplate.of(jaxRsPath);
            this.operationId = operationId;
        }

        /** The URI template, as OpenAPI writes it: {@code /devices/attributes/{attribute}}. */
        public String template() {
            return path.below(ApiRoutes.DEVICES);
        }

        /** The public operationId. */
        public String operationId() {
            return operationId;
        }
    }

    /** What a request path names: the kind, the route and the path parameters in path order (raw, not decoded). */
    public record Match(ClaimKind kind, ClaimRoute route, List<String> parameters) {

        /** The URI template of the route under its kind: {@code /claims/{claim}/{request}}. */
        public String template() {
            return route.template(kind);
        }
    }

    /** The path of {@code kind}'s resources: {@code /claims} or {@code /template-claims}. */
    static String prefix(ClaimKind kind) {
        return "/" + kind.apiSegment();
    }

    /** The claim route {@code path} names, or empty for any other path (including {@code /validate}). */
    public static Optional<Match> match(String path) {
        String[] segments = path.split("/", -1);
        ClaimKind kind = segments.length > 1 && segments[0].isEmpty() ? ClaimKind.ofApiSegment(segments[1]) : null;
        if (kind == null) {
            return Optional.empty();
        }
        for (ClaimRoute route : ClaimRoute.values()) {
            Optional<List<String>> parameters = route.path.parameters(segments, 2);
            if (parameters.isPresent()) {
                return Optional.of(new Match(kind, route, parameters.get()));
            }
        }
        return Optional.empty();
    }
}
