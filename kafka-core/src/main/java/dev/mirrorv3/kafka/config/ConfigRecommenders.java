package dev.mirrorv3.kafka.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Recommenders shared by every connector's ConfigDef; those that depend on a fragment's settings are the fragment's
 * ({@code StoreRecommenders}).
 */
public final class ConfigRecommenders {
    private ConfigRecommenders() {
    }

    public static ConfigDef.Recommender fixed(Object... values) {
        return new ConfigDef.Recommender() {
            @Override
            public List<Object> validValues(String name, Map<String, Object> parsedConfig) {
                return new ArrayList<>(List.of(values)); // ConfigDef narrows this list in place
            }

            @Override
            public boolean visible(String name, Map<String, Object> parsedConfig) {
                return true;
            }
        };
    }
}
