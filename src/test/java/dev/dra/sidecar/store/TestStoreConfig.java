package dev.dra.sidecar.store;

import dev.dra.sidecar.store.config.StoreConfig;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The store's settings as the application gets them: {@link StoreConfig}'s defaults, plus overrides. */
public final class TestStoreConfig {

    private TestStoreConfig() {}

    /**
     * @param overrides pairs of a setting name under {@code dra.metadata} and its value, e.g. {@code "watch", "false"}
     */
    public static StoreConfig of(Path root, String... overrides) {
        Map<String, String> properties = new HashMap<>();
        properties.put("dra.metadata.root", root.toString());
        for (int i = 0; i < overrides.length; i += 2) {
            properties.put("dra.metadata." + overrides[i], overrides[i + 1]);
        }
        SmallRyeConfig config = new SmallRyeConfigBuilder().addDiscoveredConverters().withMapping(StoreConfig.class)
                .withSources(new PropertiesConfigSource(properties, "test", 500)).build();
        return config.getConfigMapping(StoreConfig.class);
    }
}
