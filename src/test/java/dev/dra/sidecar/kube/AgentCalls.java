package dev.dra.sidecar.kube;

import static io.restassured.RestAssured.given;

import java.net.URL;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The calls an in-process agent made to the API server, as its {@code dra_kube_api_requests_total} on the management
 * port counts them: by {@code "<verb> <resource> <outcome>"}, such as {@code "create tokenreviews ok"}.
 */
record AgentCalls(Map<String, Long> counts) {

    private static final Pattern SERIES = Pattern.compile(
            "^dra_kube_api_requests_total\\{outcome=\"([^\"]*)\",resource=\"([^\"]*)\",verb=\"([^\"]*)\"} (\\S+)$");

    /** The counts now, from the agent's {@code /metrics} at {@code metrics}. */
    static AgentCalls of(URL metrics) {
        Map<String, Long> counts = new TreeMap<>();
        given().get(metrics).asString().lines().forEach(line -> {
            Matcher series = SERIES.matcher(line);
            if (series.matches()) {
                counts.put(series.group(3) + " " + series.group(2) + " " + series.group(1),
                        (long) Double.parseDouble(series.group(4)));
            }
        });
        return new AgentCalls(Map.copyOf(counts));
    }

    /** The calls of {@code verb} to {@code resource}, whatever their outcome. */
    long of(String verb, String resource) {
        return counts.entrySet().stream().filter(e -> e.getKey().startsWith(verb + " " + resource + " "))
                .mapToLong(Map.Entry::getValue).sum();
    }

    /** The calls other than lists and watches (those the agent's watches make on their own), whatever their outcome. */
    long requests() {
        return counts.entrySet().stream().filter(e -> !e.getKey().startsWith("list ")
                && !e.getKey().startsWith("watch ")).mapToLong(Map.Entry::getValue).sum();
    }

    @Override
    public String toString() {
        return new TreeMap<>(counts).toString();
    }
}
