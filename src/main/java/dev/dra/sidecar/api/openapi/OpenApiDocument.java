package dev.dra.sidecar.api.openapi;

import dev.dra.sidecar.api.path.ApiRoutes;
import dev.dra.sidecar.api.path.PathNames;
import dev.dra.sidecar.api.problem.Problem;
import dev.dra.sidecar.api.problem.ProblemType;
import dev.dra.sidecar.api.read.ConditionalResponses;
import dev.dra.sidecar.snapshot.ClaimKind;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * Completes the generated document from the route table and the problem catalog, so the resources need not
 * repeat them: the operationId of each claim route ({@link ApiRoutes.ClaimRoute#operationId}), the problem
 * responses of each operation ({@link ProblemType#listed}), the enumeration of problem codes, and the {@code 304}
 * and the ETag, Metadata-Source, Metadata-Source-Version and Warning headers of every metadata GET.
 */
public class OpenApiDocument implements OASFilter {

    private static final String PROBLEM_REF = "#/components/schemas/Problem";

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        // No authentication scheme: a sidecar listens on loopback for the containers of one pod; the node agent's
        // bearer token is described with its problems (missing-token, invalid-token) and in docs/node-mode.md.
        openAPI.setSecurity(List.of(OASFactory.createSecurityRequirement()));
        enumerateProblemCodes(openAPI);
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        Map<String, ApiRoutes.Match> claimRoutes = new HashMap<>();
        for (ClaimKind kind : ClaimKind.values()) {
            for (ApiRoutes.ClaimRoute route : ApiRoutes.ClaimRoute.values()) {
                claimRoutes.put(route.template(kind), new ApiRoutes.Match(kind, route, List.of()));
            }
        }
        Map<String, ApiRoutes.PodRoute> podRoutes = new HashMap<>();
        for (ApiRoutes.PodRoute route : ApiRoutes.PodRoute.values()) {
            podRoutes.put(route.template(), route);
        }
        for (Map.Entry<String, PathItem> path : openAPI.getPaths().getPathItems().entrySet()) {
            ApiRoutes.Match route = claimRoutes.get(path.getKey());
            Operation get = path.getValue().getGET();
            if (get != null) {
                constrainPathParameters(get);
                answerNotModified(get.getResponses());
            }
            path.getValue().getOperations().values().forEach(operation -> addServerRefusals(operation.getResponses()));
            if (route != null && get != null) {
                get.setOperationId(route.route().operationId(route.kind()));
                decorate(get.getResponses(), route.route().readsFiles(), route.route());
            } else if (path.getKey().startsWith(ApiRoutes.EXTENDED_RESOURCES) && get != null) {
                // The list answers like a claim list, a resource like the claim request that serves it.
                ApiRoutes.ClaimRoute like = path.getKey().equals(ApiRoutes.EXTENDED_RESOURCES)
                        ? ApiRoutes.ClaimRoute.INDEX : ApiRoutes.ClaimRoute.REQUEST;
                decorate(get.getResponses(), like.readsFiles(), like);
            }
            ApiRoutes.PodRoute podRoute = podRoutes.get(path.getKey());
            if (podRoute != null && get != null) {
                get.setOperationId(podRoute.operationId());
                decorate(get.getResponses(), true, null);
            }
            Operation post = path.getValue().getPOST();
            if (path.getKey().equals(ApiRoutes.VALIDATE) && post != null) {
                addProblems(post.getResponses(), type -> type.listed() == ProblemType.Listed.VALIDATE);
            }
        }
    }

    /**
     * Every GET takes the conditional parameters ({@code read.Conditions}): its {@code 304} follows its {@code 200}.
     */
    private static void answerNotModified(APIResponses responses) {
        responses.addAPIResponse("304", OASFactory.createAPIResponse().description("Not modified (If-None-Match)"));
    }

    /**
     * The answers the HTTP server gives any operation before the application sees the request, with no body
     * (docs/api.md, "Problems"): a request line over {@code quarkus.http.limits.max-initial-line-length} and headers
     * over {@code quarkus.http.limits.max-header-size}.
     */
    private static void addServerRefusals(APIResponses responses) {
        responses.addAPIResponse("414", OASFactory.createAPIResponse().description("The request line is longer than "
                + "quarkus.http.limits.max-initial-line-length: refused by the HTTP server, with no body"));
        responses.addAPIResponse("431", OASFactory.createAPIResponse().description("The headers are larger than "
                + "quarkus.http.limits.max-header-size: refused by the HTTP server, with no body"));
    }

    /** States each path parameter's rule ({@link PathNames.Parameter}): a name breaking it is {@code 400 invalid-name}. */
    private static void constrainPathParameters(Operation operation) {
        if (operation.getParameters() == null) {
            return;
        }
        for (Parameter parameter : operation.getParameters()) {
            if (parameter.getIn() != Parameter.In.PATH || parameter.getSchema() == null) {
                continue;
            }
            for (PathNames.Parameter rule : PathNames.Parameter.values()) {
                if (rule.parameterName.equals(parameter.getName())) {
                    parameter.getSchema().minLength(1).maxLength(rule.maxLength).pattern(rule.pattern);
                }
            }
        }
    }

    private static void enumerateProblemCodes(OpenAPI openAPI) {
        Schema problem = openAPI.getComponents() == null || openAPI.getComponents().getSchemas() == null ? null
                : openAPI.getComponents().getSchemas().get("Problem");
        if (problem != null && problem.getProperties() != null && problem.getProperties().get("code") != null) {
            problem.getProperties().get("code").setEnumeration(
                    Arrays.stream(ProblemType.values()).<Object>map(ProblemType::code).toList());
        }
    }

    /** The headers and problems of a GET: {@code route} is the claim route, or {@code null} for a pod-wide one. */
    private static void decorate(APIResponses responses, boolean readsFiles, ApiRoutes.ClaimRoute route) {
        APIResponse ok = responses.getAPIResponse("200");
        if (ok != null) {
            ok.addHeader("ETag", header("Strong entity tag of the bytes served; send it back in If-None-Match or lastEtag"));
            if (readsFiles && route != null) {
                ok.addHeader(ConditionalResponses.SOURCE_VERSION_HEADER, header(
                        "The apiVersion(s) decoded, comma-separated in file order"));
            }
            if (readsFiles) {
                ok.addHeader(ConditionalResponses.SOURCE_HEADER, header("Where the metadata served comes from, "
                        + "comma-separated in merge order: file, or resource-api where a driver wrote no file and it "
                        + "is derived from the resource API"));
                ok.addHeader("Warning", header("110 - \"stale: <reason>\" when the latest read of a file failed "
                        + "and its last good object is served"));
            }
        }
        addProblems(responses, type -> switch (type.listed()) {
            case EVERY_READ -> true;
            case FILE_READ -> readsFiles;
            case ATTRIBUTE_READ -> route == ApiRoutes.ClaimRoute.ATTRIBUTE;
            case ENV_READ -> route == ApiRoutes.ClaimRoute.ENV;
            case VALIDATE, NOWHERE -> false;
        });
    }

    /** One response per status, describing each code of that status the operation can answer with. */
    private static void addProblems(APIResponses responses, Predicate<ProblemType> listed) {
        Map<Integer, List<ProblemType>> byStatus = Arrays.stream(ProblemType.values()).filter(listed)
                .collect(Collectors.groupingBy(ProblemType::status, TreeMap::new, Collectors.toList()));
        byStatus.forEach((status, types) -> {
            if (!responses.hasAPIResponse(String.valueOf(status))) {
                responses.addAPIResponse(String.valueOf(status), OASFactory.createAPIResponse()
                        .description(describe(types)).content(problemContent()));
            }
        });
    }

    private static String describe(List<ProblemType> types) {
        String codes = types.stream().map(type -> type.code() + ": " + type.when()).collect(Collectors.joining("; "));
        return types.stream().allMatch(type -> type.retryAfterSeconds() != null)
                ? codes + "; Retry-After says when to try again" : codes;
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
