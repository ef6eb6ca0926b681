package dev.dra.sidecar.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * The project's version: the {@code <version>} of pom.xml, the one place it is written. The image tag, its OCI
 * version label, the OpenAPI document's {@code info.version}, the start log and the deploy manifests' image tag
 * follow it; tests compare them with this.
 */
public final class ProjectVersion {

    /** Semantic versioning's MAJOR.MINOR.PATCH, with an optional pre-release such as {@code -SNAPSHOT}. */
    public static final String SEMVER = "(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[0-9A-Za-z.-]+)?";

    private ProjectVersion() {}

    /** pom.xml's own {@code /project/version} (not its parent's nor a dependency's). */
    public static String get() {
        try {
            var factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Element project = factory.newDocumentBuilder().parse(Path.of("pom.xml").toFile()).getDocumentElement();
            for (Node child = project.getFirstChild(); child != null; child = child.getNextSibling()) {
                if ("version".equals(child.getNodeName())) {
                    return child.getTextContent().strip();
                }
            }
            throw new IllegalStateException("pom.xml has no <version> of its own");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("pom.xml: " + e.getMessage(), e);
        }
    }
}
