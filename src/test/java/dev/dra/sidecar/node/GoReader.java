package dev.dra.sidecar.node;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dra.sidecar.testsupport.GoOracle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The upstream Go reader ({@link GoOracle}) for one real-node test class ({@link KubeNodeExtension#goReader()}):
 * started at the class's first question, so that a class the node skips builds nothing, and stopped by
 * {@link #close()}. It says what Go makes of a driver's file on the host and of a body the sidecar or the agent
 * served, and fails the test when Go refuses either.
 */
final class GoReader implements AutoCloseable {

    private GoOracle oracle;

    /** The running oracle, started on first use, for a question the methods below do not ask. */
    GoOracle oracle() {
        if (oracle == null) {
            oracle = GoOracle.start();
        }
        return oracle;
    }

    /** Stops the oracle if it started; a later question starts another. */
    @Override
    public void close() {
        if (oracle != null) {
            oracle.close();
            oracle = null;
        }
    }

    /** The object Go decodes from the metadata stream in {@code file}; fails when Go does not decode it. */
    JsonNode decode(Path file) throws IOException {
        JsonNode answer = oracle().decode(Files.readAllBytes(file));
        assertTrue(answer.get("ok").asBoolean(), "the Go reader decodes " + file + ": " + answer);
        return answer.get("object");
    }

    /**
     * How Go reads {@code served} (strictly) and marshals it again: the served body in the oracle's spelling, to
     * compare with {@link #decode}'s object; fails when Go refuses the body.
     */
    JsonNode asGoSeesIt(String served) throws IOException {
        JsonNode answer = oracle().canonical(GoOracle.JSON.readTree(served));
        assertTrue(answer.get("ok").asBoolean(), "Go reads the served body strictly: " + answer + "\n" + served);
        return answer.get("object");
    }

    /**
     * A copy of the decoded {@code object} without its {@code metadata.generation}: what a merged view serves, which
     * leaves the file's generation out as Go's merged read does.
     */
    static JsonNode withoutGeneration(JsonNode object) {
        ObjectNode copy = object.deepCopy();
        ((ObjectNode) copy.get("metadata")).remove("generation");
        return copy;
    }
}
