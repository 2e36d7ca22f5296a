package dev.mirrorv3.connect.blob;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/** Recommenders: valid values and visibility that depend on other settings. */
final class Recommenders {
    private Recommenders() {
    }

    static ConfigDef.Recommender fixed(Object... values) {
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
    static ConfigDef.Recommender compression() {
        return new ConfigDef.Recommender() {
            @Override
            public List<Object> validValues(String name, Map<String, Object> parsedConfig) {
                return new ArrayList<>("ndjson".equalsIgnoreCase(String.valueOf(parsedConfig.get(BlobSinkConfig.FORMAT)))
                        ? List.of("uncompressed") : List.of("zstd", "snappy", "uncompressed"));
            }

            @Override
            public boolean visible(String name, Map<String, Object> parsedConfig) {
                return !"ndjson".equalsIgnoreCase(String.valueOf(parsedConfig.get(BlobSinkConfig.FORMAT)));
            }
        };
    }

    static ConfigDef.Recommender visibleForFilesystem() {
        return visibleForDestination(BlobSinkConfig.DESTINATION_TYPE_FILESYSTEM);
    }

    static ConfigDef.Recommender visibleForS3() {
        return visibleForDestination(BlobSinkConfig.DESTINATION_TYPE_S3);
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
                return type.equals(parsedConfig.get(BlobSinkConfig.DESTINATION_TYPE));
            }
        };
    }
}
