package dev.dra.sidecar.api.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;

/**
 * Answers a problem from a Vert.x handler, ahead of the resources, as the resources' exception mappers answer it from
 * them: the type's status, the problem body and the type's {@link ProblemType#headers headers}.
 */
@ApplicationScoped
public class RoutedProblems {

    private final ObjectMapper json;

    RoutedProblems(ObjectMapper json) {
        this.json = json;
    }

    /** Ends the response with the problem; the caller's handler chain stops here. */
    public void send(RoutingContext context, ProblemType type, String detail) {
        HttpServerResponse response = context.response().setStatusCode(type.status())
                .putHeader("Content-Type", Problem.MEDIA_TYPE);
        type.headers().forEach(response::putHeader);
        try {
            response.end(Buffer.buffer(json.writeValueAsBytes(type.problem(detail))));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
