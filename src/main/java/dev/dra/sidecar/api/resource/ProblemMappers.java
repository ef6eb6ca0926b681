package dev.dra.sidecar.api.resource;

import dev.dra.sidecar.api.openapi.PublishedOpenApiDocument;
import dev.dra.sidecar.api.path.ApiRoutes;
import dev.dra.sidecar.api.path.PathNames;
import dev.dra.sidecar.api.problem.ApiException;
import dev.dra.sidecar.api.problem.Problem;
import dev.dra.sidecar.api.problem.ProblemType;
import jakarta.ws.rs.NotAcceptableException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Every failure of the JAX-RS resources leaves as a problem body: ours with their type, the framework's mapped to one. */
class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    /** A path no resource has: where the API's resources and its description are. */
    static String noSuchPath() {
        return "no such path: the API serves GET " + ApiRoutes.CLAIMS + ", GET " + ApiRoutes.TEMPLATE_CLAIMS + " and GET "
                + ApiRoutes.DEVICES + " (and the resources below them), and POST " + ApiRoutes.VALIDATE
                + "; the OpenAPI document describing every one is at " + PublishedOpenApiDocument.PATH
                + " on the management port (" + ConfigProvider.getConfig().getValue("quarkus.management.port", String.class) + ")";
    }

    @ServerExceptionMapper
    Response api(ApiException e) {
        return problem(e.type(), e.getMessage()).build();
    }

    @ServerExceptionMapper
    Response web(WebApplicationException e, UriInfo uri, HttpHeaders headers) {
        int status = e.getResponse().getStatus();
        if (e instanceof NotFoundException) {
            return problem(ProblemType.NOT_FOUND, noSuchPath()).build();
        } else if (e instanceof NotAllowedException) {
            return problem(ProblemType.METHOD_NOT_ALLOWED, "this resource allows " + allowed(uri))
                    .header("Allow", allowed(uri)).build();
        } else if (e instanceof NotAcceptableException) {
            return problem(ProblemType.NOT_ACCEPTABLE,
                    "this resource is available as application/json (and text/plain for attribute values)").build();
        } else if (e instanceof NotSupportedException) {
            return problem(ProblemType.UNSUPPORTED_MEDIA_TYPE, unsupported(headers.getHeaderString(HttpHeaders.CONTENT_TYPE)))
                    .build();
        } else if (status == ProblemType.PAYLOAD_TOO_LARGE.status()) {
            return problem(ProblemType.PAYLOAD_TOO_LARGE, "the request body is too large").build();
        } else if (status >= 500) {
            LOG.error("Request failed", e);
            return problem(ProblemType.INTERNAL, "the sidecar failed; see its log").build();
        }
        // Another 4xx of the framework: its own status, with the generic code.
        Problem generic = ProblemType.BAD_REQUEST.problem(e.getMessage());
        return Response.status(status).type(Problem.MEDIA_TYPE)
                .entity(new Problem(generic.type(), generic.title(), status, generic.detail(), generic.code())).build();
    }

    /** A body of a type {@code POST /validate} does not take: which types it takes, and the one that came. */
    static String unsupported(String contentType) {
        return "POST " + ApiRoutes.VALIDATE + " takes a body of type " + String.join(", ", ValidateResource.STREAM_MEDIA_TYPES)
                + "; this one is " + (contentType == null ? "without a Content-Type" : PathNames.quote(contentType))
                + " (curl --data-binary sends application/x-www-form-urlencoded unless -H 'Content-Type: application/json' is given)";
    }

    /** The API is read-only but for {@code POST /validate}. */
    private static String allowed(UriInfo uri) {
        return uri.getPath().equals(ApiRoutes.VALIDATE) ? "POST" : "GET, HEAD";
    }

    /**
     * The answer for a problem of {@code type}: its status, the body and the type's {@link ProblemType#headers
     * headers}.
     */
    static Response.ResponseBuilder problem(ProblemType type, String detail) {
        Response.ResponseBuilder response = Response.status(type.status()).type(Problem.MEDIA_TYPE)
                .entity(type.problem(detail));
        type.headers().forEach(response::header);
        return response;
    }
}
