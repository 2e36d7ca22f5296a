package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.store.StoreException;
import dev.mirrorv3.chain.store.TransientStoreException;
import dev.mirrorv3.chain.store.s3.S3AccessException;
import dev.mirrorv3.chain.store.s3.S3Settings;
import dev.mirrorv3.chain.store.s3.S3Store;
import dev.mirrorv3.kafka.config.ClusterAccess;
import dev.mirrorv3.kafka.config.ConnectorChecks;
import dev.mirrorv3.kafka.config.ConnectorValidator;
import dev.mirrorv3.kafka.config.DestinationSettings;
import dev.mirrorv3.kafka.config.ReachFailure;
import dev.mirrorv3.kafka.config.StoreConfigFragment;
import dev.mirrorv3.kafka.config.StoreSettings;
import dev.mirrorv3.kafka.config.TopicsSetting;
import java.util.Map;
import org.apache.kafka.common.config.Config;

/**
 * Cross-field rules of the blob sink (docs/blob-sink.md, docs/decisions.md), each error attached to the setting it concerns, so that
 * {@code PUT /connector-plugins/{class}/config/validate} reports it per field and says how to fix it.
 */
final class BlobSinkConfigValidator extends ConnectorValidator<BlobSinkConfig> {

    /**
     * @param offline contact nothing (CI of GitOps repositories): skip the checks that need the filesystem root, the
     *     keys dir, the S3 bucket or the source cluster
     */
    BlobSinkConfigValidator(Map<String, String> props, Config config, boolean offline) {
        super(props, config, offline, BlobSinkConfig.FRAGMENTS, BlobSinkConfig::new);
    }

    @Override
    protected void checkConnector() {
        boolean tee = DestinationSettings.isTee(props);
        for (DestinationSettings d : DestinationSettings.all(props)) {
            ConnectorChecks c = tee ? checks.prefixed(d.key(""), d.settings()) : checks;
            if (tee) {
                DestinationSettings.checkValues(d, BlobSinkConfig.CONFIG_DEF, c);
            }
            checkTopics(d, c);
            if (storeLocationComplete() && !offline && d.store().s3()) {
                checkS3Access(d, c);
            }
        }
        checkCompaction();
        if (tee && BlobSinkConfig.COMPACTION_LOG.equalsIgnoreCase(props.getOrDefault(BlobSinkConfig.COMPACTION, "").trim())) {
            error(BlobSinkConfig.COMPACTION, "compaction=log is not written to several destinations: deploy a connector of its own"
                    + " for the snapshots, or remove " + BlobSinkConfig.DESTINATIONS);
        }
        checkSourceCluster();
    }

    private void checkTopics(DestinationSettings d, ConnectorChecks c) {
        boolean perTopic = d.store().destinationName().contains(BlobSinkConfig.TOPIC_PLACEHOLDER);
        if (TopicsSetting.listed(props).size() > 1 && !perTopic) {
            String key = d.key(StoreConfigFragment.DESTINATION_NAME);
            error("topics", "several topics would share one chain directory per partition; set " + key + " to a name"
                    + " containing ${topic} (e.g. ${topic}), or deploy one connector per topic");
        }
    }

    private void checkCompaction() {
        if (!BlobSinkConfig.COMPACTION_LOG.equalsIgnoreCase(props.getOrDefault(BlobSinkConfig.COMPACTION, "").trim())) {
            return;
        }
        if (StoreSettings.of(props).ndjson()) {
            error(BlobSinkConfig.COMPACTION, "compaction=log writes Parquet snapshots sorted by key; set format=parquet, or back this"
                    + " topic up as an NDJSON chain with compaction=none. Note that every flush of compaction=log rewrites the whole"
                    + " snapshot (a pass over every key): flush.max.time.ms defaults to one hour in this mode; keep it well below the"
                    + " topic's delete.retention.ms");
        }
        // Each flush of this mode rewrites the whole snapshot: the flush interval trades backup freshness against a pass over
        // every key and one snapshot-sized object per flush (COMPACTION_DOC says so in the settings reference).
    }

    /**
     * One ListObjectsV2 (at most one key) with the read identity: bucket, endpoint and credentials, within ~5 s; then,
     * with s3.object.lock.mode, whether the bucket has Object Lock.
     */
    private void checkS3Access(DestinationSettings d, ConnectorChecks c) {
        if (parsed() == null || c.hasErrors(StoreConfigFragment.S3_OBJECT_LOCK_MODE)
                || c.hasErrors(StoreConfigFragment.S3_OBJECT_LOCK_RETAIN_DAYS)) {
            return; // the settings' own errors are reported; the store is tried once they are fixed
        }
        BlobSinkConfig parsed = new BlobSinkConfig(d.settings());
        S3Settings settings = parsed.s3Settings().withCallTimeout(java.time.Duration.ofSeconds(5));
        // The chain prefix of the (first) topic, since a least-privilege policy may allow listing under it only.
        String topic = TopicsSetting.listed(props).stream().findFirst().orElse("");
        String name = d.chainName(props.getOrDefault("name", "blob-sink"), topic);
        try (S3Store store = new S3Store(settings, name)) {
            store.checkReadAccess();
            checkObjectLock(store, settings, c);
        } catch (S3AccessException e) {
            String key = switch (e.problem()) {
                case NO_BUCKET -> StoreConfigFragment.S3_BUCKET;
                case CREDENTIALS, DENIED -> "s3." + e.role() + ".access.key.id";
                case OTHER -> StoreConfigFragment.S3_BUCKET;
            };
            c.error(key, e.getMessage());
        } catch (StoreException e) {
            boolean aws = d.store().s3Endpoint().isBlank();
            c.error(aws ? StoreConfigFragment.S3_REGION : StoreConfigFragment.S3_ENDPOINT,
                    "cannot reach " + settings.describe() + ": " + ReachFailure.describe(e) + " (one ListObjectsV2 within 5 s;"
                            + " check s3.endpoint, s3.region and the network to it)");
        }
    }

    /**
     * With a retention per object (s3.object.lock.mode), the bucket must have Object Lock enabled: one
     * GetObjectLockConfiguration with the read identity (s3:GetBucketObjectLockConfiguration). Every answer but a transient
     * one is the retention's error.
     */
    private void checkObjectLock(S3Store store, S3Settings settings, ConnectorChecks c) {
        if (settings.objectLock().isEmpty()) {
            return;
        }
        try {
            store.checkObjectLockEnabled();
        } catch (TransientStoreException e) {
            throw e;
        } catch (StoreException e) {
            c.error(StoreConfigFragment.S3_OBJECT_LOCK_MODE, e.getMessage());
        }
    }

    private void checkSourceCluster() {
        ClusterAccess.SOURCE.validate(props, checks, offline, () -> {
            BlobSinkConfig parsed = parsed();
            return parsed == null ? null : parsed.sourceAdminConfig();
        });
    }
}
