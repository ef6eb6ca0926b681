package dev.dra.sidecar.api.body;

import dev.dra.sidecar.api.path.PathNames;
import dev.dra.sidecar.api.problem.ApiException;
import dev.dra.sidecar.api.problem.ProblemType;
import dev.dra.sidecar.snapshot.AttributeValue;
import dev.dra.sidecar.snapshot.ClaimKind;
import dev.dra.sidecar.snapshot.DeviceEntry;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The filters of {@code GET /devices}: each given one must hold (absent: any). {@code kind}, {@code claim},
 * {@code request}, {@code driver} and {@code pool} may be given once each; {@code attribute} ({@code name=value})
 * any number of times. A bad value, or a single-valued filter given twice, is {@code 400 invalid-parameter}.
 */
public class DeviceFilter {

    @QueryParam("kind")
    @Parameter(description = "Only claims of this kind: claims (referenced by name) or template-claims",
            schema = @Schema(type = SchemaType.STRING, enumeration = {ClaimKind.CLAIMS, ClaimKind.TEMPLATE_CLAIMS}))
    List<String> kind;

    @QueryParam("claim")
    @Parameter(description = "Only the claim (or pod claim) of this name", schema = @Schema(type = SchemaType.STRING))
    List<String> claim;

    @QueryParam("request")
    @Parameter(description = "Only the requests of this (top-level) name", schema = @Schema(type = SchemaType.STRING))
    List<String> request;

    @QueryParam("driver")
    @Parameter(description = "Only devices of this driver", schema = @Schema(type = SchemaType.STRING))
    List<String> driver;

    @QueryParam("pool")
    @Parameter(description = "Only devices of this pool", schema = @Schema(type = SchemaType.STRING))
    List<String> pool;

    @QueryParam("attribute")
    @Parameter(description = "Only devices whose attribute <name> has the value <value> (name=value, split at the "
            + "first '='; compared with the text form, one item of a list matching is enough); repeat for several",
            example = "numaNode=0", schema = @Schema(type = SchemaType.STRING, pattern = ATTRIBUTE_MATCH))
    List<String> attribute;

    /** {@code name=value}: the name as {@link PathNames#lookupKey} takes it (no '='), then any value. */
    static final String ATTRIBUTE_MATCH = "^[^=\\u0000-\\u001f\\u007f-\\u009f]{1,512}=[\\s\\S]*$";

    /** The filters as the request gave them: an empty value counts, and a repeated one is seen. */
    @Context
    io.vertx.core.http.HttpServerRequest http;

    private record AttributeMatch(String name, String value) {}

    private ClaimKind keptKind;
    private List<AttributeMatch> matches;

    /** Checks every filter once, before the snapshot is read: {@code 400 invalid-parameter} for a bad one. */
    public DeviceFilter checked() {
        String k = single("kind", kind);
        keptKind = k == null ? null : ClaimKind.ofApiSegment(k);
        if (k != null && keptKind == null) {
            throw invalid("kind must be " + ClaimKind.CLAIMS + " or " + ClaimKind.TEMPLATE_CLAIMS + ", got " + PathNames.quote(k));
        }
        single("claim", claim);
        single("request", request);
        single("driver", driver);
        single("pool", pool);
        matches = new ArrayList<>();
        for (String given : all("attribute", attribute)) {
            int eq = given.indexOf('=');
            String name = eq < 0 ? "" : given.substring(0, eq);
            if (eq < 0 || name.isEmpty() || name.codePointCount(0, name.length()) > 512
                    || name.chars().anyMatch(Character::isISOControl)) {
                throw invalid("attribute must be name=value with a name of 1 to 512 characters without control "
                        + "characters, got " + PathNames.quote(given));
            }
            matches.add(new AttributeMatch(name, given.substring(eq + 1)));
        }
        return this;
    }

    boolean keepsKind(ClaimKind candidate) {
        return keptKind == null || keptKind == candidate;
    }

    boolean keepsClaim(String name) {
        return equalsIfGiven("claim", claim, name);
    }

    boolean keepsRequest(String name) {
        return equalsIfGiven("request", request, name);
    }

    boolean keepsDevice(DeviceEntry device) {
        if (!equalsIfGiven("driver", driver, device.driver()) || !equalsIfGiven("pool", pool, device.pool())) {
            return false;
        }
        for (AttributeMatch match : matches) {
            AttributeValue value = device.attributes().get(match.name());
            if (value == null || !AttributeText.of(value).lines().contains(match.value())) {
                return false;
            }
        }
        return true;
    }

    private boolean equalsIfGiven(String name, List<String> declared, String candidate) {
        String wanted = single(name, declared);
        return wanted == null || wanted.equals(candidate);
    }

    private List<String> all(String name, List<String> declared) {
        List<String> values = http == null ? declared : http.params().getAll(name);
        return values == null ? List.of() : values;
    }

    private String single(String name, List<String> declared) {
        List<String> values = all(name, declared);
        if (values.size() > 1) {
            throw invalid(name + " is given " + values.size() + " times; give it once");
        }
        return values.isEmpty() ? null : values.get(0);
    }

    private static ApiException invalid(String detail) {
        return new ApiException(ProblemType.INVALID_PARAMETER, detail);
    }
}
