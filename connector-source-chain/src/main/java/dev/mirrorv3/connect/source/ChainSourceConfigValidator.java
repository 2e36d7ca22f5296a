package dev.mirrorv3.connect.source;

import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.config.ClusterAccess;
import dev.mirrorv3.kafka.config.ConnectorChecks;
import dev.mirrorv3.kafka.config.ConnectorValidator;
import dev.mirrorv3.kafka.config.DestinationSettings;
import dev.mirrorv3.kafka.config.GroupSyncConfigFragment;
import dev.mirrorv3.kafka.config.StoreConfigFragment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Cross-field rules of the chain source (docs/chain-source.md), each error attached to the setting it concerns and saying how
 * to fix it. Connect's producer is neither idempotent nor acks=all by default, so both are required.
 */
final class ChainSourceConfigValidator extends ConnectorValidator<ChainSourceConfig> {
    private static final Duration STORE_TIMEOUT = Duration.ofSeconds(5);

    /**
     * @param offline contact nothing (CI of GitOps repositories): skip the checks that need the backup's store, the keys
     *     dir (both are the worker's) or the target cluster
     */
    ChainSourceConfigValidator(Map<String, String> props, Config config, boolean offline) {
        super(props, config, offline, ChainSourceConfig.FRAGMENTS, ChainSourceConfig::new);
    }

    @Override
    protected void checkConnector() {
        if ("log".equalsIgnoreCase(props.getOrDefault(ChainSourceConfig.COMPACTION, "").trim())) {
            error(ChainSourceConfig.COMPACTION, ChainSourceConfig.COMPACTION_REFUSED);
        }
        if (!"true".equalsIgnoreCase(props.getOrDefault("producer.override.enable.idempotence", "").trim())) {
            error("producer.override.enable.idempotence", "set producer.override.enable.idempotence=true (found "
                    + props.getOrDefault("producer.override.enable.idempotence", "nothing") + "): Connect's source producer is not"
                    + " idempotent by default, and a retried send could then write a record twice or out of order");
        }
        String acks = props.getOrDefault("producer.override.acks", "").trim();
        if (!"all".equalsIgnoreCase(acks) && !"-1".equals(acks)) {
            error("producer.override.acks", "set producer.override.acks=all (found " + (acks.isEmpty() ? "nothing" : acks) + "): a record"
                    + " acknowledged by the leader alone can be lost on a leader change, and the target's high watermark is the position");
        }
        checks.refuseErrorsToleranceAll("errors.tolerance=all would skip records that failed to convert or send, leaving the target"
                + " short of the backup; remove errors.tolerance or set it to none");
        checks.requireByteArrayConverters("the records are restored with their exact bytes");
        checks.refuseTransforms("no transform may run on restored records: a changed record would not be the backup's, and a dropped"
                + " one would shift every offset after it. Remove transforms");
        String topics = props.getOrDefault(ChainSourceConfig.TOPICS, "");
        if (topics.contains(",")) {
            error(ChainSourceConfig.TOPICS, "one topic per connector: the backup of " + topics.split(",")[0].trim()
                    + ", say; deploy one connector per backed-up topic");
        }
        Optional<DestinationSettings> followed = followed();
        followed.ifPresent(d -> {
            if (d.store().destinationName().isBlank()) {
                store(d).error(StoreConfigFragment.DESTINATION_NAME, "required: the backup's chain directory name, i.e. the blob"
                        + " sink's " + d.key(StoreConfigFragment.DESTINATION_NAME) + ", or the blob sink connector's name when it"
                        + " had none");
            }
        });
        if (!props.getOrDefault(ChainSourceConfig.ORIGINAL_OFFSET_HEADER, "").isBlank()
                && "preserve".equalsIgnoreCase(props.getOrDefault(ChainSourceConfig.OFFSETS, ""))) {
            error(ChainSourceConfig.ORIGINAL_OFFSET_HEADER, "only with offsets=renumber: with preserve every record is at its backed-up"
                    + " offset already");
        }
        if ("true".equalsIgnoreCase(props.getOrDefault(GroupSyncConfigFragment.GROUPS_SYNC, "").trim())
                && "renumber".equalsIgnoreCase(props.getOrDefault(ChainSourceConfig.OFFSETS, "").trim())) {
            error(GroupSyncConfigFragment.GROUPS_SYNC, ChainSourceGroupSync.RENUMBER_REFUSED);
        }
        followed.ifPresent(this::checkBackupDirectory);
        checkFollowedPartitions(followed);
        checkTarget();
    }

    /**
     * Two backup partitions never go to one target partition, and an offset cut names every followed partition: checked
     * over the partitions that will be followed, which without {@code partitions} are the backup's directories when the
     * store answers (the connector and its tasks check again at start and when partitions appear), and over those
     * partition.mapping lists.
     */
    private void checkFollowedPartitions(Optional<DestinationSettings> followed) {
        boolean mapping = !hasErrors(ChainSourceConfig.PARTITION_MAPPING);
        boolean cut = !hasErrors(RestoreCutSettings.UNTIL_OFFSET) && !hasErrors(RestoreCutSettings.UNTIL_TIMESTAMP);
        if (hasErrors(ChainSourceConfig.PARTITIONS) || (!mapping && !cut)) {
            return;
        }
        ChainSourceConfig parsed = parsed();
        if (parsed == null) {
            return;
        }
        List<Integer> partitions = parsed.partitions();
        if (partitions.isEmpty() && !offline && followed.isPresent()) {
            partitions = backupPartitions(parsed, store(followed.get()));
        }
        if (mapping) {
            parsed.partitionMapping().sharedTarget(partitions).ifPresent(m -> error(ChainSourceConfig.PARTITION_MAPPING, m));
        }
        if (cut) {
            RestoreCutSettings.untilOffsetProblem(RestoreCutSettings.cut(parsed), partitions)
                    .ifPresent(m -> error(RestoreCutSettings.UNTIL_OFFSET, m));
        }
    }

    /** The backup's partition directories; empty when the store settings are wrong or the store does not answer in time. */
    private static List<Integer> backupPartitions(ChainSourceConfig parsed, ConnectorChecks storeChecks) {
        for (String key : List.of(StoreConfigFragment.DESTINATION_TYPE, StoreConfigFragment.FILESYSTEM_ROOT,
                StoreConfigFragment.DESTINATION_NAME, StoreConfigFragment.S3_BUCKET, StoreConfigFragment.S3_REGION,
                StoreConfigFragment.S3_READ_ACCESS_KEY_ID, StoreConfigFragment.S3_READ_SECRET_ACCESS_KEY)) {
            if (storeChecks.hasErrors(key)) {
                return List.of();
            }
        }
        try (Store store = parsed.openStore(STORE_TIMEOUT)) {
            return store.partitions();
        } catch (RuntimeException e) {
            return List.of(); // the connector lists them again at start, and fails there if it cannot
        }
    }

    /** The backup's directory exists, once the store fragment's rules (run by the base) found the location complete. */
    private void checkBackupDirectory(DestinationSettings followed) {
        if (!storeLocationComplete() || offline) {
            return; // offline: the worker's directory, not this machine's
        }
        ChainSourceConfig parsed = parsed();
        if (parsed != null) {
            requireBackupDirectory(parsed).ifPresent(p -> store(followed).error(StoreConfigFragment.FILESYSTEM_ROOT, p));
        }
    }

    /** The destination followed: the single one, or the tee's that destination names (its error is the store fragment's). */
    private Optional<DestinationSettings> followed() {
        try {
            return Optional.of(DestinationSettings.read(props));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Where the errors of the followed destination's store settings go: on its prefixed keys in a tee. */
    private ConnectorChecks store(DestinationSettings followed) {
        return followed.teeName().isPresent() ? checks.prefixed(followed.key(""), followed.settings()) : checks;
    }

    /** A filesystem backup whose directory does not exist is refused (the blob sink creates it); S3 prefixes are waited for. */
    static Optional<String> requireBackupDirectory(ChainSourceConfig config) {
        if (!config.store().filesystem()) {
            return Optional.empty();
        }
        Path dir = config.store().filesystemRoot().resolve(config.destinationName());
        if (!Files.isDirectory(dir)) {
            return Optional.of("the backup directory " + dir + " does not exist: check "
                    + config.storeKey(StoreConfigFragment.FILESYSTEM_ROOT) + " and " + config.storeKey(StoreConfigFragment.DESTINATION_NAME)
                    + " (the blob sink creates it when it starts; an existing directory without objects is waited for)");
        }
        return Optional.empty();
    }

    /** The target cluster is reachable, and the target topic exists with a partition for each followed backup partition. */
    private void checkTarget() {
        ChainSourceConfig parsed = offline ? null : parsed();
        TargetCluster.ACCESS.validate(props, checks, offline, () -> parsed == null ? null : parsed.targetClientConfig(),
                admin -> checkTargetTopic(admin, parsed));
    }

    private void checkTargetTopic(Admin admin, ChainSourceConfig parsed) {
        String topic = parsed.targetTopic();
        try {
            TopicDescription d = admin.describeTopics(List.of(topic), new DescribeTopicsOptions().timeoutMs(ClusterAccess.REACH_TIMEOUT_MS))
                    .allTopicNames().get(ClusterAccess.REACH_TIMEOUT_MS + 1000, TimeUnit.MILLISECONDS).get(topic);
            for (int p : parsed.partitions()) {
                if (parsed.targetPartition(p) >= d.partitions().size()) {
                    error(ChainSourceConfig.TARGET_TOPIC, "target topic " + topic + " has " + d.partitions().size() + " partitions, and"
                            + " backup partition " + p + " goes to partition " + parsed.targetPartition(p) + ": add partitions or set"
                            + " partition.mapping");
                }
            }
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                error(ChainSourceConfig.TARGET_TOPIC, "target topic " + topic + " does not exist: the connector never creates topics;"
                        + " create it with the partitions, cleanup.policy and retention it should have (retention.ms=-1 keeps the"
                        + " last record the resume check needs)");
            } else {
                TargetCluster.ACCESS.unreachable(checks, TargetCluster.ACCESS.bootstrap(props), e.getCause());
            }
        } catch (Exception e) {
            TargetCluster.ACCESS.unreachable(checks, TargetCluster.ACCESS.bootstrap(props), e);
        }
    }

}
