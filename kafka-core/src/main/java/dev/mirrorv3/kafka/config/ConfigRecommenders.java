package dev.mirrorv3.kafka.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/** Recommenders: valid values and visibility that depend on other settings; shared by every connector's ConfigDef. */
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

    /** Compression applies to Parquet only. */
    public static ConfigDef.Recommender compression() {
        return new ConfigDef.Recommender() {
            @Override
            public List<Object> validValues(String name, Map<String, Object> parsedConfig) {
                return new ArrayList<>("ndjson".equalsIgnoreCase(String.valueOf(parsedConfig.get(StoreConfigFragment.FORMAT)))
                        ? List.of("uncompressed") : List.of("zstd", "snappy", "uncompressed"));
            }

            @Override
            public boolean visible(String name, Map<String, Object> parsedConfig) {
                return !"ndjson".equalsIgnoreCase(String.valueOf(parsedConfig.get(StoreConfigFragment.FORMAT)));
            }
        };
    }

    public static ConfigDef.Recommender visibleForFilesystem() {
        return visibleForDestination(StoreConfigFragment.DESTINATION_TYPE_FILESYSTEM);
    }

    public static ConfigDef.Recommender visibleForS3() {
        return visibleForDestination(StoreConfigFragment.DESTINATION_TYPE_S3);
    }

    /** Settings of one destination type: shown only when destination.type is that type. */
    private static ConfigDef.Recommender visibleForDestination(String type) {
        return new ConfigDef.Recommender() {
            @Override
            public List<Object> validValues(String name, Map<String, Object> parsedConfig) {
                return new ArrayList<>();
            }

            @Override
            public boolean visible(String name, Map<String, Object> parsedConfig) {
                return type.equals(parsedConfig.get(StoreConfigFragment.DESTINATION_TYPE));
            }
        };
    }
}
