package dev.dra.sidecar.testsupport;

import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;

/**
 * Makes every RestAssured request of a {@code @QuarkusTest} ask for {@code Connection: close}, so that the server
 * closes the connection once its response is sent.
 *
 * <p>RestAssured builds a new HTTP client per request and never closes it, so each request would leave a
 * keep-alive connection open until the garbage collector finds its client. Hundreds of them pile up on the server
 * under test, and past {@code quarkus.http.limits.max-connections} the sidecar rightly closes new connections
 * unanswered, which a test then reports as {@code NoHttpResponseException}. Registered through
 * {@code META-INF/services} so that it runs before every test method, in the class loader the test's RestAssured
 * lives in. A test that sets its own {@code Connection} header keeps it.
 */
public final class WellBehavedHttpClients implements QuarkusTestBeforeEachCallback {

    private static final Filter CLOSE_AFTER_RESPONSE = (request, response, context) -> {
        if (!request.getHeaders().hasHeaderWithName("Connection")) {
            request.header("Connection", "close");
        }
        return context.next(request, response);
    };

    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        if (!RestAssured.filters().contains(CLOSE_AFTER_RESPONSE)) {
            RestAssured.filters(CLOSE_AFTER_RESPONSE);
        }
    }
}
