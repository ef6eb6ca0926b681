package dev.dra.sidecar.deploy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.dra.sidecar.testsupport.Helm;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;

/** What the chart declares (Chart.yaml). */
final class ChartVersions {

    private ChartVersions() {}

    /** Chart.yaml as a map. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> chart() throws IOException {
        return new ObjectMapper(new YAMLFactory()).readValue(Files.readString(Helm.CHART.resolve("Chart.yaml")), Map.class);
    }
}
