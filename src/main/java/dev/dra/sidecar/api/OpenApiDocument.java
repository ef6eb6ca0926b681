package dev.dra.sidecar.api;

import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * Adds to the generated document what every metadata GET shares, so the resources need not repeat it: the
 * problem responses with their codes, and the ETag, Metadata-Source-Version and Warning headers.
 */
public class OpenApiDocument implements OASFilter {

    private static final String PROBLEM_REF = "#/components/schemas/Problem";

    private static final String TOO_MANY_LONG_POLLS = "too-many-long-polls: a long poll past "
            + "dra.api.max-long-polls (the connection is closed)";

    private static final Map<String, String> READ_PROBLEMS = Map.of(
            "400", "invalid-name: a name in the path is not valid; invalid-parameter: a bad query parameter; "
                    + "invalid-host: the Host header is not an allowed one",
            "404", "not-found: no such claim, request, driver, device or attribute",
            "502", "invalid-object, no-compatible-version or file-too-large: a file of the request cannot be "
                    + "decoded; detail names the file",
            "503", "no-metadata-objects or malformed-stream: a file is empty or cut short, probably while a driver "
                    + "writes it; " + TOO_MANY_LONG_POLLS + "; Retry-After says when to try again");

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        // No authentication, on purpose: the API listens on loopback for the containers of one pod.
        openAPI.setSecurity(List.of(OASFactory.createSecurityRequirement()));
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        for (Map.Entry<String, PathItem> path : openAPI.getPaths().getPathItems().entrySet()) {
            path.getValue().getOperations().values().forEach(OpenApiDocument::nameOperation);
            Operation get = path.getValue().getGET();
            if (get != null) {
                // a validation report is served whatever the files hold: no 502/503, no source-version header
                decorate(get.getResponses(), path.getKey().matches("/(template-)?claims/\\{claim}/.*|/(template-)?claims/\\{claim}")
                        && !path.getKey().endsWith("/validation"));
            }
        }
    }

    /**
     * Client-friendly operation ids: the generated ones name the Java class ({@code DirectClaimsResource_request}),
     * and the two claim kinds share their methods.
     */
    private static void nameOperation(Operation operation) {
        String id = operation.getOperationId();
        if (id == null) {
            return;
        }
        String method = id.substring(id.indexOf('_') + 1);
        String kind = id.startsWith("TemplateClaimsResource_") ? "TemplateClaim" : "Claim";
        operation.setOperationId(switch (method) {
            case "list" -> "list" + kind + "s";
            case "claim" -> "get" + kind;
            case "request" -> "get" + kind + "Request";
            case "driver" -> "get" + kind + "Driver";
            case "attribute" -> "get" + kind + "Attribute";
            case "validation" -> "get" + kind + "Validation";
            case "validate" -> "validateStream";
            default -> id;
        });
    }

    private static void decorate(APIResponses responses, boolean readsFiles) {
        APIResponse ok = responses.getAPIResponse("200");
        if (ok != null) {
            ok.addHeader("ETag", header("Strong entity tag of the bytes served; send it back in If-None-Match or lastEtag"));
            if (readsFiles) {
                ok.addHeader("Metadata-Source-Version", header(
                        "The apiVersion(s) decoded, comma-separated in file order"));
                ok.addHeader("Warning", header("110 - \"stale: <reason>\" when the latest read of a file failed "
                        + "and its last good object is served"));
            }
        }
        READ_PROBLEMS.forEach((status, description) -> {
            if (!readsFiles && status.equals("503")) {
                description = TOO_MANY_LONG_POLLS + "; Retry-After says when to try again";
            } else if (!readsFiles && status.equals("502")) {
                return;
            }
            if (!responses.hasAPIResponse(status)) {
                responses.addAPIResponse(status, OASFactory.createAPIResponse().description(description)
                        .content(problemContent()));
            }
        });
    }

    private static Content problemContent() {
        return OASFactory.createContent().addMediaType(Problem.MEDIA_TYPE,
                OASFactory.createMediaType().schema(OASFactory.createSchema().ref(PROBLEM_REF)));
    }

    private static Header header(String description) {
        return OASFactory.createHeader().description(description)
                .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING));
    }

}
