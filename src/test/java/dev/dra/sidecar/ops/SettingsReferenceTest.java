package dev.dra.sidecar.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dra.sidecar.api.ApiConfig;
import dev.dra.sidecar.identity.NodeConfig;
import dev.dra.sidecar.store.config.StoreConfig;
import io.smallrye.config.ConfigMappingInterface;
import io.smallrye.config.ConfigMappings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The settings table of docs/operations.md, the one place the sidecar's own settings are documented, lists every
 * property of the {@code @ConfigMapping} interfaces and nothing else under {@code dra.}, each with the default the
 * code has ({@code (none)} for an optional one).
 */
class SettingsReferenceTest {

    private static final Path OPERATIONS = Path.of("docs/operations.md");
    private static final String NONE = "(none)";

    @Test
    void everySettingIsDocumentedWithTheDefaultTheCodeHas() throws IOException {
        Map<String, String> code = new TreeMap<>();
        for (Class<?> mapping : List.of(StoreConfig.class, ApiConfig.class, MetricsConfig.class,
                NodeConfig.class)) {
            ConfigMappings.getProperties(ConfigMappings.ConfigClass.configClass(mapping))
                    .forEach((name, property) -> {
                        if (!name.endsWith("[*]")) { // a list's elements, named one by one: the list is the setting
                            code.put(name, defaultOf(property));
                        }
                    });
        }
        Map<String, String> documented = new TreeMap<>();
        documentedSettings().forEach((name, value) -> {
            if (name.startsWith("dra.")) {
                documented.put(name, value);
            }
        });
        assertTrue(code.size() >= 12, "the mappings were read: " + code);
        assertEquals(code, documented, "docs/operations.md, section Settings");
    }

    @Test
    void everyQuarkusSettingTheApplicationSetsIsDocumentedWithTheValueItSets() throws IOException {
        Properties properties = new Properties();
        try (var in = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            properties.load(in);
        }
        Map<String, String> documented = new TreeMap<>();
        Map<String, String> set = new TreeMap<>();
        documentedSettings().forEach((name, value) -> {
            if (name.startsWith("quarkus.") && properties.containsKey(name)) {
                documented.put(name, value);
                set.put(name, properties.getProperty(name));
            }
        });
        assertTrue(documented.size() >= 6, "the limits and the shutdown timeout are documented: " + documented);
        assertEquals(set, documented, "docs/operations.md, section Settings, against application.properties");
    }

    private static String defaultOf(ConfigMappingInterface.Property property) {
        return property.hasDefaultValue() ? property.getDefaultValue() : NONE;
    }

    /** Setting name to the Default column, backticks removed, from the table of the section "Settings". */
    private static Map<String, String> documentedSettings() throws IOException {
        String text = Files.readString(OPERATIONS);
        int start = text.indexOf("\n## Settings\n");
        int end = text.indexOf("\n## ", start + 1);
        assertTrue(start >= 0 && end > start, "docs/operations.md has a Settings section");
        Map<String, String> settings = new TreeMap<>();
        for (String line : text.substring(start, end).split("\n")) {
            if (!line.startsWith("| `")) {
                continue;
            }
            String[] cells = line.split(" \\| ");
            String name = cells[0].substring(2).trim();
            if (name.matches("`[^`]+`")) { // rows naming two settings at once are Quarkus' own
                settings.put(name.replace("`", ""), cells[2].replace("`", "").trim());
            }
        }
        return settings;
    }
}
