package dev.dra.sidecar.api.problem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.dra.sidecar.decode.FailureCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/api.md, the API reference, describes everything the OpenAPI document has: every path with its operationId,
 * and every problem code (in the table of problems, with its status); and the OpenAPI enumeration of codes is the
 * catalog's. The checked-in document is the served one (OpenApiDocumentTest).
 */
class ApiReferenceTest {

    private static final Path REFERENCE = Path.of("docs/api.md");

    private static JsonNode openApi() throws IOException {
        return new ObjectMapper(new YAMLFactory()).readTree(Path.of("src/main/openapi/openapi.yaml").toFile());
    }

    @Test
    void everyOperationIsInTheReference() throws IOException {
        String reference = Files.readString(REFERENCE);
        List<String> missing = new ArrayList<>();
        openApi().get("paths").properties().forEach(path -> path.getValue().properties().forEach(operation -> {
            String row = "`" + operation.getKey().toUpperCase() + " " + path.getKey() + "` | `"
                    + operation.getValue().get("operationId").asText() + "`";
            if (!reference.contains(row)) {
                missing.add(row);
            }
        }));
        assertEquals(List.of(), missing, "rows missing from the resources table of " + REFERENCE);
    }

    @Test
    void everyProblemCodeIsInTheReferenceWithItsStatus() throws IOException {
        String reference = Files.readString(REFERENCE);
        List<String> missing = new ArrayList<>();
        for (JsonNode code : openApi().at("/components/schemas/Problem/properties/code/enum")) {
            ProblemType type = Arrays.stream(ProblemType.values()).filter(t -> t.code().equals(code.asText()))
                    .findFirst().orElseThrow(() -> new AssertionError("not in ProblemType: " + code));
            Matcher row = Pattern.compile("(?m)^\\| " + type.status() + "[^|]*\\| `" + Pattern.quote(type.code()) + "` \\|")
                    .matcher(reference);
            if (!row.find()) {
                missing.add(type.status() + " " + type.code());
            }
        }
        assertEquals(List.of(), missing, "rows missing from the problems table of " + REFERENCE);
    }

    @Test
    void theOpenApiEnumerationIsTheCatalog() throws IOException {
        List<String> enumerated = new ArrayList<>();
        openApi().at("/components/schemas/Problem/properties/code/enum").forEach(c -> enumerated.add(c.asText()));
        assertEquals(Arrays.stream(ProblemType.values()).map(ProblemType::code).toList(), enumerated);
        assertTrue(enumerated.size() == enumerated.stream().distinct().count(), "codes are unique: " + enumerated);
    }

    /** A file the store cannot serve answers with the problem of the decoder's code; retryable when transient. */
    @Test
    void everyFileFailureHasTheProblemOfItsCode() {
        for (FailureCode failure : FailureCode.values()) {
            ProblemType type = ProblemType.of(failure);
            assertEquals(failure.code(), type.code());
            assertEquals(failure.isTransient(), type.retryAfterSeconds() != null, failure::toString);
        }
    }
}
