package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.store.StoreException;
import dev.mirrorv3.chain.store.s3.S3AccessException;
import dev.mirrorv3.chain.store.s3.S3Settings;
import dev.mirrorv3.chain.store.s3.S3Store;
import dev.mirrorv3.kafka.config.ClusterAccess;
import dev.mirrorv3.kafka.config.ConnectorChecks;
import dev.mirrorv3.kafka.config.ConnectorConfigFragment;
import dev.mirrorv3.kafka.config.ReachFailure;
import dev.mirrorv3.kafka.config.SinkConsumerRules;
import dev.mirrorv3.kafka.config.StoreConfigFragment;
import dev.mirrorv3.kafka.config.TopicsSetting;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cross-field rules of the blob sink (docs/blob-sink.md, docs/decisions.md), each error attached to the setting it concerns, so that
 * {@code PUT /connector-plugins/{class}/config/validate} reports it per field and says how to fix it.
 */
final class BlobSinkConfigValidator {
    private static final Logger LOG = LoggerFactory.getLogger(BlobSinkConfigValidator.class);
    static final String BYTE_ARRAY_CONVERTER = ConnectorChecks.BYTE_ARRAY_CONVERTER;

    private final Map<String, String> props;
    private final Config config;
    private final ConnectorChecks checks;
    private final boolean offline;

    BlobSinkConfigValidator(Map<String, String> props, Config config) {
        this(props, config, false);
    }

    /**
     * @param offline contact nothing (CI of GitOps repositories): skip the checks that need the filesystem root, the
     *     keys dir, the S3 bucket or the source cluster
     */
    BlobSinkConfigValidator(Map<String, String> props, Config config, boolean offline) {
        this.props = props;
        this.config = config;
        this.checks = new ConnectorChecks(props, config);
        this.offline = offline;
    }

    Config validate() {
        SinkConsumerRules.validate(checks, "blob sink", "backup");
        checkTopics();
        checkCompaction();
        if (StoreConfigFragment.validate(props, checks, StoreConfigFragment.Access.WRITE, offline) && !offline
                && BlobSinkConfig.DESTINATION_TYPE_S3.equalsIgnoreCase(props.getOrDefault(BlobSinkConfig.DESTINATION_TYPE, ""))) {
            checkS3Access();
        }
        checkSourceCluster();
        ConnectorConfigFragment.validateRetryBackoff(props, checks);
        BlobSinkConfig.DEPRECATED.report(props, config, LOG);
        return config;
    }

    private void checkTopics() {
        String name = props.getOrDefault(BlobSinkConfig.DESTINATION_NAME, "");
        boolean perTopic = name.contains(BlobSinkConfig.TOPIC_PLACEHOLDER);
        if (TopicsSetting.listed(props).size() > 1 && !perTopic) {
            error("topics", "several topics would share one chain directory per partition; set destination.name to a name"
                    + " containing ${topic} (e.g. ${topic}), or deploy one connector per topic");
        }
    }

    private void checkCompaction() {
        if (!BlobSinkConfig.COMPACTION_LOG.equalsIgnoreCase(props.getOrDefault(BlobSinkConfig.COMPACTION, "").trim())) {
            return;
        }
        if ("ndjson".equalsIgnoreCase(props.getOrDefault(BlobSinkConfig.FORMAT, "").trim())) {
            error(BlobSinkConfig.COMPACTION, "compaction=log writes Parquet snapshots sorted by key; set format=parquet, or back this"
                    + " topic up as an NDJSON chain with compaction=none. Note that every flush of compaction=log rewrites the whole"
                    + " snapshot (a pass over every key): flush.max.time.ms defaults to one hour in this mode; keep it well below the"
                    + " topic's delete.retention.ms");
        }
        // Each flush of this mode rewrites the whole snapshot: the flush interval trades backup freshness against a pass over
        // every key and one snapshot-sized object per flush (COMPACTION_DOC says so in the settings reference).
    }

    /** One ListObjectsV2 (at most one key) with the read identity: bucket, endpoint and credentials, within ~5 s. */
    private void checkS3Access() {
        BlobSinkConfig parsed;
        try {
            parsed = new BlobSinkConfig(props);
        } catch (RuntimeException e) {
            return; // single-field errors are already reported
        }
        S3Settings settings = parsed.s3Settings().withCallTimeout(java.time.Duration.ofSeconds(5));
        // The chain prefix of the (first) topic, since a least-privilege policy may allow listing under it only.
        String topic = TopicsSetting.listed(props).stream().findFirst().orElse("");
        String name = parsed.destinationName(props.getOrDefault("name", "blob-sink"), topic);
        try (S3Store store = new S3Store(settings, name)) {
            store.checkReadAccess();
        } catch (S3AccessException e) {
            String key = switch (e.problem()) {
                case NO_BUCKET -> BlobSinkConfig.S3_BUCKET;
                case CREDENTIALS, DENIED -> "s3." + e.role() + ".access.key.id";
                case OTHER -> BlobSinkConfig.S3_BUCKET;
            };
            error(key, e.getMessage());
        } catch (StoreException e) {
            error(props.getOrDefault(BlobSinkConfig.S3_ENDPOINT, "").isBlank() ? BlobSinkConfig.S3_REGION : BlobSinkConfig.S3_ENDPOINT,
                    "cannot reach " + settings.describe() + ": " + ReachFailure.describe(e) + " (one ListObjectsV2 within 5 s;"
                            + " check s3.endpoint, s3.region and the network to it)");
        }
    }

    private void checkSourceCluster() {
        ClusterAccess.SOURCE.validate(props, checks, offline, () -> {
            try {
                return new BlobSinkConfig(props).sourceAdminConfig();
            } catch (RuntimeException e) {
                return null; // single-field errors are already reported
            }
        });
    }

    private boolean hasErrors(String key) {
        return checks.hasErrors(key);
    }

    private void error(String key, String message) {
        checks.error(key, message);
    }
}
