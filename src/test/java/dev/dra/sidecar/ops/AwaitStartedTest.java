package dev.dra.sidecar.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The postStart hook's facts that live elsewhere: the management port and where the image puts its classes. */
class AwaitStartedTest {

    @Test
    void theDefaultPortIsTheManagementPortOfTheApplication() throws IOException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            properties.load(in);
        }
        assertEquals(Integer.toString(AwaitStarted.DEFAULT_PORT), properties.getProperty("quarkus.management.port"));
    }

    @Test
    void theImageHasTheArgumentFileAndTheClassPathItNames() throws IOException {
        String dockerfile = Files.readString(Path.of("src/main/docker/Dockerfile.jvm"));
        assertTrue(dockerfile.contains("COPY src/main/docker/jvm-options src/main/docker/await-started /deployments/"),
                "the argument file is at /deployments/await-started");
        assertTrue(dockerfile.contains("COPY target/quarkus-app/app/ /deployments/app/"), "its class path, /deployments/app/*");
        assertTrue(Files.readString(Path.of("src/main/docker/await-started")).contains("\n/deployments/app/*\n"));
        assertTrue(dockerfile.contains("\nENTRYPOINT [\"/opt/jre/bin/java\", "), "the manifests' hook runs the image's java");
    }
}
