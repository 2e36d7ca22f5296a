package dev.mirrorv3.kafka.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/**
 * {@link StoreConfigFragment}'s recommenders: which of its settings are shown, and their valid values, by the
 * destination type and the format Connect has parsed.
 */
final class StoreRecommenders {
    private StoreRecommenders() {
    }

    /** Compression applies to Parquet only. */
    static ConfigDef.Recommender compression() {
        return new ConfigDef.Recommender() {
            @Override
            public List<Object> validValues(String name, Map<String, Object> parsedConfig) {
                return new ArrayList<>(ndjson(parsedConfig) ? List.of("uncompressed") : List.of("zstd", "snappy", "uncompressed"));
            }

            @Override
            public boolean visible(String name, Map<String, Object> parsedConfig) {
                return !ndjson(parsedConfig);
            }
        };
    }

    private static boolean ndjson(Map<String, Object> parsedConfig) {
        return "ndjson".equalsIgnoreCase(String.valueOf(parsedConfig.get(StoreConfigFragment.FORMAT)));
    }

    static ConfigDef.Recommender visibleForFilesystem() {
        return visibleForDestination(StoreConfigFragment.DESTINATION_TYPE_FILESYSTEM);
    }

    static ConfigDef.Recommender visibleForS3() {
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
