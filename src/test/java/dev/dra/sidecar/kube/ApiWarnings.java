package dev.dra.sidecar.kube;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Every {@code Warning} header the API server sent (Pod Security {@code warn} mode, deprecated fields, ...), with
 * the request that got it; fabric8 itself only logs them.
 */
final class ApiWarnings implements Interceptor {

    private final List<String> warnings = new ArrayList<>();

    @Override
    public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
        List<String> headers = response.headers("Warning");
        if (headers != null && !headers.isEmpty()) {
            synchronized (warnings) {
                for (String header : headers) {
                    warnings.add(request.method() + " " + request.uri().getPath() + ": " + header);
                }
            }
        }
    }

    /** The warnings received since the last call, and forgets them. */
    List<String> drain() {
        synchronized (warnings) {
            List<String> out = List.copyOf(warnings);
            warnings.clear();
            return out;
        }
    }
}
