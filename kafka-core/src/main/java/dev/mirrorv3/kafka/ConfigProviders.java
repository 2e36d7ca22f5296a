package dev.mirrorv3.kafka;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigTransformer;
import org.apache.kafka.common.config.provider.ConfigProvider;
import org.apache.kafka.common.config.provider.DirectoryConfigProvider;
import org.apache.kafka.common.config.provider.EnvVarConfigProvider;
import org.apache.kafka.common.config.provider.FileConfigProvider;

/**
 * Resolves {@code ${env:…}}, {@code ${file:…}} and {@code ${directory:…}} in a connector's settings with Kafka's own
 * config providers, the way a worker that configures them would. For the tools that read a connector's JSON outside a
 * worker (the restore CLI, the quickstart's checks).
 */
public final class ConfigProviders {
    private ConfigProviders() {
    }

    /** @throws org.apache.kafka.common.config.ConfigException when a reference cannot be resolved */
    public static Map<String, String> resolve(Map<String, String> settings) {
        Map<String, ConfigProvider> providers = new LinkedHashMap<>();
        providers.put("env", new EnvVarConfigProvider());
        providers.put("file", new FileConfigProvider());
        providers.put("directory", new DirectoryConfigProvider());
        try {
            providers.values().forEach(p -> p.configure(Map.of()));
            return Map.copyOf(new LinkedHashMap<>(new ConfigTransformer(providers).transform(settings).data()));
        } finally {
            for (ConfigProvider p : providers.values()) {
                try {
                    p.close();
                } catch (IOException ignored) {
                    // nothing held
                }
            }
        }
    }
}
