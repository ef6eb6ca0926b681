package dev.dra.sidecar.deploy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.dra.sidecar.testsupport.Helm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;

/** The versions the chart and the build declare. */
final class ChartVersions {

    private ChartVersions() {}

    /** Chart.yaml as a map. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> chart() throws IOException {
        return new ObjectMapper(new YAMLFactory()).readValue(Files.readString(Helm.CHART.resolve("Chart.yaml")), Map.class);
    }

    /** The project's version, /project/version of pom.xml. */
    static String project() throws Exception {
        var pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("pom.xml").toFile());
        return XPathFactory.newInstance().newXPath().evaluate("/project/version", pom).strip();
    }

    /** The release a version is or leads to: a {@code -SNAPSHOT} build is on its way to that release. */
    static String release(String version) {
        return version.endsWith("-SNAPSHOT") ? version.substring(0, version.length() - "-SNAPSHOT".length()) : version;
    }
}
