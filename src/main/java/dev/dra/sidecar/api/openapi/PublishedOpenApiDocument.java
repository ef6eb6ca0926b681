package dev.dra.sidecar.api.openapi;

import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Serves the API's OpenAPI document on the management interface at {@value #PATH} (YAML) and
 * {@value #PATH}{@code .json} (JSON), from the copies checked in under {@code src/main/openapi/} and packaged as
 * class-path resources under {@value #RESOURCES}.
 *
 * <p>The document is generated at build time (SmallRye OpenAPI, completed by {@link OpenApiDocument}); a test
 * fails the build when the checked-in copies differ from what it generates. Serving the copies instead of the
 * extension's endpoint keeps the document's model, parser and writers out of the running sidecar: the extension's
 * endpoint is switched off ({@code quarkus.smallrye-openapi.enabled=false}) and its copy of the document is left
 * out of the packaged application, so that it has nothing to parse at start-up.
 *
 * <p>Content negotiation is the extension's: a {@code .json}, {@code .yaml} or {@code .yml} suffix chooses the
 * format, else {@code Accept: application/json} or {@code ?format=json} gives JSON, and YAML otherwise. Each answer
 * reads its copy from the class path on a worker thread: the sidecar does not hold the document between the rare
 * requests for it. A copy missing from the class path fails the start.
 */
@ApplicationScoped
public class PublishedOpenApiDocument {

    public static final String PATH = "/q/openapi";
    static final String RESOURCES = "openapi/";

    private static final String JSON = "application/json";
    private static final String YAML = "application/yaml";
    private static final String JSON_COPY = "openapi.json";
    private static final String YAML_COPY = "openapi.yaml";

    void route(@Observes ManagementInterface management) {
        for (String name : List.of(JSON_COPY, YAML_COPY)) {
            if (PublishedOpenApiDocument.class.getClassLoader().getResource(RESOURCES + name) == null) {
                throw new IllegalStateException("the OpenAPI document " + RESOURCES + name + " is not packaged");
            }
        }
        for (String path : List.of(PATH, PATH + ".json", PATH + ".yaml", PATH + ".yml")) {
            // Ahead of the switched-off extension endpoint registered on the same paths.
            Route route = management.router().route(path).method(HttpMethod.GET).method(HttpMethod.HEAD).order(-1);
            route.blockingHandler(this::serve, false);
        }
    }

    private void serve(RoutingContext context) {
        boolean asJson = wantsJson(context);
        Buffer document = Buffer.buffer(read(asJson ? JSON_COPY : YAML_COPY));
        // Set here too: Vert.x leaves it out of the answer to a HEAD request.
        context.response()
                .putHeader("Content-Type", (asJson ? JSON : YAML) + ";charset=UTF-8")
                .putHeader("Content-Length", String.valueOf(document.length()))
                .end(document);
    }

    private static boolean wantsJson(RoutingContext context) {
        String path = context.normalizedPath();
        if (path.endsWith(".json")) {
            return true;
        }
        if (path.endsWith(".yaml") || path.endsWith(".yml")) {
            return false;
        }
        String accept = context.request().getHeader("Accept");
        List<String> format = context.queryParam("format");
        return (accept != null && accept.contains(JSON)) || (!format.isEmpty() && "json".equalsIgnoreCase(format.get(0)));
    }

    private static byte[] read(String name) {
        try (InputStream in = PublishedOpenApiDocument.class.getClassLoader().getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("the OpenAPI document " + RESOURCES + name + " is not packaged");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
