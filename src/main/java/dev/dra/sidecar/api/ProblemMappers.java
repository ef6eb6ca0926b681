package dev.dra.sidecar.api;

import jakarta.ws.rs.NotAcceptableException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Every failure leaves as a problem body: ours with their code, the framework's mapped to a code too. */
class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @ServerExceptionMapper
    Response api(ApiException e) {
        Response.ResponseBuilder response = problem(e.problem());
        if (e.retryAfterSeconds() != null) {
            response.header("Retry-After", e.retryAfterSeconds());
        }
        if (e.closeConnection()) {
            response.header("Connection", "close");
        }
        return response.build();
    }

    @ServerExceptionMapper
    Response web(WebApplicationException e, UriInfo uri) {
        int status = e.getResponse().getStatus();
        Problem problem;
        if (e instanceof NotFoundException) {
            problem = Problem.of(404, "not-found", "Not found", "no such resource");
        } else if (e instanceof NotAllowedException) {
            problem = Problem.of(405, "method-not-allowed", "Method not allowed",
                    "this resource allows " + allowed(uri));
        } else if (e instanceof NotAcceptableException) {
            problem = Problem.of(406, "not-acceptable", "Not acceptable",
                    "this resource is available as application/json (and text/plain for attribute values)");
        } else if (e instanceof NotSupportedException) {
            problem = Problem.of(415, "unsupported-media-type", "Unsupported media type", e.getMessage());
        } else if (status == 413) {
            problem = Problem.of(413, "payload-too-large", "Payload too large", "the request body is too large");
        } else if (status >= 500) {
            LOG.error("Request failed", e);
            problem = Problem.of(500, "internal", "Internal error", "the sidecar failed; see its log");
        } else {
            problem = Problem.of(status, "bad-request", "Bad request", e.getMessage());
        }
        Response.ResponseBuilder response = problem(problem);
        if (e instanceof NotAllowedException) {
            response.header("Allow", allowed(uri));
        }
        return response.build();
    }

    /** The API is read-only but for {@code POST /validate}. */
    private static String allowed(UriInfo uri) {
        return uri.getPath().equals("/validate") ? "POST" : "GET, HEAD";
    }

    static Response.ResponseBuilder problem(Problem problem) {
        return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(problem);
    }
}
