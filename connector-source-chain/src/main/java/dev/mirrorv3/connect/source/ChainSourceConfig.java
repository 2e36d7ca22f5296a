package dev.mirrorv3.connect.source;

import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.restore.OffsetMode;
import dev.mirrorv3.chain.restore.RestoreCut;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.config.ConfigFragment;
import dev.mirrorv3.kafka.config.ConfigFragments;
import dev.mirrorv3.kafka.config.ConfigRecommenders;
import dev.mirrorv3.kafka.config.ConfigValidators;
import dev.mirrorv3.kafka.config.ConnectorConfigFragment;
import dev.mirrorv3.kafka.config.DeprecatedAliases;
import dev.mirrorv3.kafka.config.DestinationSettings;
import dev.mirrorv3.kafka.config.GroupSyncConfigFragment;
import dev.mirrorv3.kafka.config.HeartbeatConfigFragment;
import dev.mirrorv3.kafka.config.Setting;
import dev.mirrorv3.kafka.config.SharedConnectorConfig;
import dev.mirrorv3.kafka.config.StoreSettings;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The ChainSourceConnector's settings: the backup's store settings (the blob sink's keys and definitions, so the
 * sink's JSON can be reused), the target and how records are placed in it, and operations.
 */
public final class ChainSourceConfig extends SharedConnectorConfig {
    private static final String GROUP_BACKUP = "Backup";
    private static final String GROUP_TARGET = "Target";
    private static final String GROUP_OPERATIONS = HeartbeatConfigFragment.GROUP;
    private static final String GROUP_GROUPS = "Consumer groups";

    public static final String TOPICS = "topics";
    static final String TOPICS_DOC = """
            The backed-up topic, as the blob sink's 'topics' names it (exactly one): every record of the \
            backup must be of it, and ${topic} in destination.name resolves to it.""";

    public static final String COMPACTION = "compaction";
    static final String COMPACTION_DOC = """
            The backup's compaction as the blob sink's config gives it. Only 'none' (a chain) can be \
            followed: a compaction=log backup holds snapshots of the latest record per key, which have no history to follow; \
            restore one with mirror-v3 restore --offsets renumber.""";
    static final String COMPACTION_REFUSED = """
            compaction=log: this backup holds snapshots (the latest record per key), not a chain, \
            and following a snapshot has no meaning; restore the newest snapshot with mirror-v3 restore --offsets renumber instead, \
            and follow only chains (compaction=none)""";

    public static final String OFFSETS = "offsets";
    static final String OFFSETS_DOC = """
            How records are placed in the target. 'preserve': every record at its original offset (the \
            chain must start at 0; a hole fails the task when it is reached, after the records before it). 'renumber': the \
            records at 0, 1, 2, ... in their original order (compacted or transactional topics, whose chains have holes).""";

    public static final String TARGET_TOPIC = "target.topic";
    static final String TARGET_TOPIC_DOC = """
            The topic to restore into, on the cluster Connect produces to. It must exist (it is never \
            created) and be empty, or hold the first records of this backup (a follower's or a one-shot restore's, with the \
            same offsets mode).""";

    public static final String PARTITIONS = "partitions";
    static final String PARTITIONS_DOC = """
            Backup partitions to follow (comma-separated); empty means every partition directory the \
            backup has when the connector starts (it waits, listing every poll.interval.ms, while there is none).""";

    public static final String PARTITION_MAPPING = "partition.mapping";
    static final String PARTITION_MAPPING_DOC = """
            Target partitions that differ from the backup's, as backup:target pairs, e.g. 0:3,1:4; \
            a partition not listed goes to the same-numbered one. Two backup partitions never go to one target partition.""";

    public static final String ORIGINAL_OFFSET_HEADER = "original.offset.header";
    static final String ORIGINAL_OFFSET_HEADER_DOC = """
            With offsets=renumber, add each record's backed-up offset (decimal text) as a \
            header of this name, so consumers can map old offsets to new ones; empty for none.""";

    /** Old setting names that still work (validate() warns about them). */
    public static final DeprecatedAliases DEPRECATED = DeprecatedAliases.of(TargetCluster.DEPRECATED_ADMIN_TIMEOUT_MS,
            ConnectorConfigFragment.ADMIN_TIMEOUT_MS);

    public static final String POLL_INTERVAL_MS = "poll.interval.ms";
    static final String POLL_INTERVAL_MS_DOC = """
            After the last object listed so far, how often the backup is listed again for new \
            objects. The target trails the backup by about this plus the sink's flush interval.""";

    public static final String CHAIN_START = "chain.start";
    static final String CHAIN_START_DOC = """
            Where the chain must start. 0 (the default): at offset 0 or at its recorded start (where \
            mirror-v3 prune left it); another offset: at or before it. A chain starting elsewhere fails the \
            partition, so objects removed from its head by anything but prune are never missed silently.""";

    static final String RETRY_BACKOFF_INITIAL_MS_DOC = """
            First delay after a transient failure (store or target cluster unreachable); \
            doubles on each further failure up to retry.backoff.max.ms. The task resumes at the target's high watermark.""";



    /** Task config: the backup partitions of one task (set by the connector). */
    static final String TASK_PARTITIONS = "task.partitions";

    static final String GROUPS_SYNC_DOC = """
            Commit the consumer groups of the backup's newest group snapshot (written by the blob sink \
            beside the chains) on the target every groups.interval.ms, filtered by groups.include/groups.exclude, so that \
            consumers failing over to the standby resume where they were. Each offset is clamped to what the target holds (its \
            log start up to its high watermark: what this connector has restored so far), and a group with active members on \
            the target is never written. Needs offsets=preserve (renumbered offsets would need a translation). Off by \
            default: it writes the target's groups, which is right for a standby whose consumers are stopped only.""";
    static final String GROUPS_INTERVAL_MS_DOC = """
            How often the backup's newest group snapshot is read and its offsets synced to the \
            target (a snapshot is only as fresh as the blob sink's groups.interval.ms). 0 turns the sync off, as groups.sync=false \
            does.""";

    static final ConfigFragments FRAGMENTS = ConfigFragments.of(DEPRECATED,
            BackupStore.fragment(GROUP_BACKUP),
            BackupStore.destinations(GROUP_BACKUP),
            ConfigFragment.settingsFrom(GROUP_BACKUP, 10,
                    Setting.of(TOPICS, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, Importance.HIGH, Width.MEDIUM, "Backed-up topic",
                            TOPICS_DOC).withValidator(new ConfigDef.NonEmptyString()),
                    Setting.of(CHAIN_START, Type.LONG, 0L, Importance.MEDIUM, Width.SHORT, "Chain start", CHAIN_START_DOC)
                            .withValidator(ConfigDef.Range.atLeast(0)),
                    Setting.of(PARTITIONS, Type.LIST, "", Importance.MEDIUM, Width.MEDIUM, "Partitions", PARTITIONS_DOC)
                            .withValidator(ConfigValidators.partitionList())),
            RestoreCutSettings.fragment(GROUP_BACKUP),
            ConfigFragment.settings(GROUP_BACKUP,
                    Setting.of(COMPACTION, Type.STRING, "none", Importance.LOW, Width.SHORT, "Backup compaction", COMPACTION_DOC)
                            .withValidator(ConfigValidators.oneOf("none", "log"))),
            ConfigFragment.settings(GROUP_TARGET,
                    Setting.of(TARGET_TOPIC, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, Importance.HIGH, Width.MEDIUM, "Target topic",
                            TARGET_TOPIC_DOC).withValidator(new ConfigDef.NonEmptyString()),
                    Setting.of(OFFSETS, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, Importance.HIGH, Width.SHORT, "Offsets", OFFSETS_DOC)
                            .withValidator(ConfigValidators.oneOf("preserve", "renumber"))
                            .withRecommender(ConfigRecommenders.fixed("preserve", "renumber")),
                    Setting.of(PARTITION_MAPPING, Type.LIST, "", Importance.LOW, Width.MEDIUM, "Partition mapping", PARTITION_MAPPING_DOC)
                            .withValidator(PartitionMapping.validator()),
                    Setting.of(ORIGINAL_OFFSET_HEADER, Type.STRING, "", Importance.LOW, Width.MEDIUM, "Original offset header",
                            ORIGINAL_OFFSET_HEADER_DOC)),
            TargetCluster.fragment(GROUP_TARGET),
            ConfigFragment.settings(GROUP_OPERATIONS, Setting.of(POLL_INTERVAL_MS, Type.LONG, 5_000L, Importance.MEDIUM, Width.SHORT,
                    "Poll interval (ms)", POLL_INTERVAL_MS_DOC).withValidator(ConfigDef.Range.atLeast(100))),
            ConnectorConfigFragment.retryBackoff(GROUP_OPERATIONS,
                    Map.of(ConnectorConfigFragment.RETRY_BACKOFF_INITIAL_MS, RETRY_BACKOFF_INITIAL_MS_DOC)),
            HeartbeatConfigFragment.FRAGMENT,
            GroupSyncConfigFragment.withSync(GROUP_GROUPS, false, GROUPS_SYNC_DOC,
                    Map.of(GroupSyncConfigFragment.GROUPS_INTERVAL_MS, GROUPS_INTERVAL_MS_DOC)));

    public static final ConfigDef CONFIG_DEF = FRAGMENTS.configDef();

    /**
     * @param props the connector's settings; of a blob sink's config with several destinations, the one destination
     *     names is read (its settings as a single destination's)
     * @throws org.apache.kafka.common.config.ConfigException on destination when it names none of the destinations
     */
    public ChainSourceConfig(Map<?, ?> props) {
        super(FRAGMENTS, BackupStore.followed(props));
    }

    /** A compaction=log backup (snapshots): refused, there is nothing to follow. */
    public boolean snapshotBackup() {
        return "log".equalsIgnoreCase(getString(COMPACTION));
    }

    /**
     * The cut of the followed partitions (until.timestamp, until.offset).
     *
     * @throws org.apache.kafka.common.config.ConfigException when until.offset names no offset for a followed partition
     *     and until.timestamp is empty
     */
    public RestoreCut restoreCut(List<Integer> followed) {
        return RestoreCutSettings.followedCut(this, followed);
    }

    /** until.timestamp and until.offset as configured, before the rule over the followed partitions. */
    RestoreCut configuredCut() {
        return RestoreCutSettings.cut(this);
    }

    public String sourceTopic() {
        return getString(TOPICS).trim();
    }

    /** The chain directory name: destination.name with ${topic} resolved. */
    public String destinationName() {
        return store().chainName("", sourceTopic());
    }

    /** The store settings of the destination followed, typed. */
    public StoreSettings store() {
        return StoreSettings.of(originalsStrings());
    }

    /** A store setting as the connector's config spells it: under destinations.NAME. when it follows a tee's destination. */
    public String storeKey(String key) {
        String followed = getString(DestinationSettings.DESTINATION).trim();
        return followed.isEmpty() ? key : DestinationSettings.PREFIX + followed + "." + key;
    }

    /** Opens the backup's store; it is only listed and read, so the write identity may be absent (the read one stands in). */
    public Store openStore() {
        return BackupStore.open(this, destinationName());
    }

    /** The backup's store whose S3 calls give up after {@code s3CallTimeout} (validate() answers within seconds). */
    Store openStore(Duration s3CallTimeout) {
        return BackupStore.open(this, destinationName(), s3CallTimeout);
    }

    /**
     * The keys the backup's encrypted objects are read with (encryption.keys.dir; the sink's encryption.key.id is not
     * needed to read).
     *
     * @throws dev.mirrorv3.chain.crypto.KeysDirException naming the setting or the key file that is wrong
     */
    public KeyRing keys() {
        return store().keys();
    }

    public EnvelopeSettings envelope() {
        return store().envelope();
    }

    public OffsetMode offsetMode() {
        return OffsetMode.valueOf(getString(OFFSETS).trim().toUpperCase(Locale.ROOT));
    }

    public String targetTopic() {
        return getString(TARGET_TOPIC).trim();
    }

    public List<Integer> partitions() {
        return getList(PARTITIONS).stream().map(String::trim).filter(s -> !s.isEmpty()).map(Integer::valueOf).toList();
    }

    /** The target partition of a backup partition. */
    public int targetPartition(int backupPartition) {
        return partitionMapping().target(backupPartition);
    }

    PartitionMapping partitionMapping() {
        return PartitionMapping.parse(PARTITION_MAPPING, getList(PARTITION_MAPPING));
    }

    public String originalOffsetHeader() {
        String h = getString(ORIGINAL_OFFSET_HEADER);
        return h == null || h.isBlank() ? null : h;
    }

    public long chainStart() {
        return getLong(CHAIN_START);
    }

    public long pollIntervalMs() {
        return getLong(POLL_INTERVAL_MS);
    }

    /** Target cluster client settings: everything under target.admin., bootstrap defaulting to the producer override. */
    public Map<String, Object> targetClientConfig() {
        return TargetCluster.clientConfig(this);
    }

    static String targetBootstrap(Map<String, String> props) {
        return TargetCluster.ACCESS.bootstrap(props);
    }

    /** Backup partitions of one task. */
    List<Integer> taskPartitions() {
        String s = originalsStrings().getOrDefault(TASK_PARTITIONS, "");
        return s.isBlank() ? List.of() : java.util.Arrays.stream(s.split(",")).map(String::trim).map(Integer::valueOf).toList();
    }

    /** groups.sync, unless groups.interval.ms is 0 (off). */
    public boolean groupsSync() {
        return GroupSyncConfigFragment.syncs(this);
    }

}
