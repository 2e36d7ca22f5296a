package dev.mirrorv3.connect.source;

import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.restore.OffsetMode;
import dev.mirrorv3.chain.restore.RestoreCut;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.StoreFactory;
import dev.mirrorv3.chain.store.s3.S3Store;
import dev.mirrorv3.kafka.config.ClusterAccess;
import dev.mirrorv3.kafka.config.ConfigFragment;
import dev.mirrorv3.kafka.config.ConfigFragments;
import dev.mirrorv3.kafka.config.ConfigRecommenders;
import dev.mirrorv3.kafka.config.ConfigValidators;
import dev.mirrorv3.kafka.config.ConnectorConfigFragment;
import dev.mirrorv3.kafka.config.DeprecatedAliases;
import dev.mirrorv3.kafka.config.GroupSyncConfigFragment;
import dev.mirrorv3.kafka.config.HeartbeatConfigFragment;
import dev.mirrorv3.kafka.config.Setting;
import dev.mirrorv3.kafka.config.SharedConnectorConfig;
import dev.mirrorv3.kafka.config.StoreConfigFragment;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

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
    static final String TOPICS_DOC = "The backed-up topic, as the blob sink's 'topics' names it (exactly one): every record of the"
            + " backup must be of it, and ${topic} in destination.name resolves to it.";

    static final String DESTINATION_NAME_DOC = "The backup's chain directory under the root: <root>/<destination.name>/<partition>/."
            + " Required: the blob sink's destination.name, or the sink connector's name when it had none. ${topic} resolves to"
            + " the topic in 'topics'.";

    static final String FILESYSTEM_ROOT_DOC = "Absolute path of the directory that holds the backup's chains"
            + " (destination.type=filesystem). <root>/<destination.name> must exist (the blob sink creates it); an existing"
            + " directory without objects is waited for.";

    static final String S3_WRITE_IDENTITY_DOC = "Not used: the chain source only lists and reads (the read identity). Accepted so"
            + " that the blob sink's config can be reused as it is.";
    static final String ENCRYPTION_DOC = "The backup's encryption as the blob sink's config gives it: 'none' or empty (plain Parquet or"
            + " NDJSON objects) or 'parquet' (Parquet modular encryption). Either way each object is read with the key its name"
            + " carries, from encryption.keys.dir; 'parquet' requires encryption.keys.dir.";
    static final String ENCRYPTION_KEYS_DIR_DOC = "Absolute path of the directory of keys the blob sink encrypted the backup with (the"
            + " same mounted Secret): one file per key id, the standard base64 of 32 bytes. Needed when any object of the chain"
            + " is encrypted; a chain naming a key id without a file here fails the task, listing the missing ids. validate()"
            + " loads it and names the file that is not a key.";
    static final String ENCRYPTION_KEY_ID_DOC = "Not used to read (each object names its own key); accepted so the blob sink's"
            + " configuration can be reused as it is.";

    public static final String COMPACTION = "compaction";
    static final String COMPACTION_DOC = "The backup's compaction as the blob sink's config gives it. Only 'none' (a chain) can be"
            + " followed: a compaction=log backup holds snapshots of the latest record per key, which have no history to follow;"
            + " restore one with mirror-v3 restore --offsets renumber.";
    static final String COMPACTION_REFUSED = "compaction=log: this backup holds snapshots (the latest record per key), not a chain,"
            + " and following a snapshot has no meaning; restore the newest snapshot with mirror-v3 restore --offsets renumber instead,"
            + " and follow only chains (compaction=none)";

    public static final String OFFSETS = "offsets";
    static final String OFFSETS_DOC = "How records are placed in the target. 'preserve': every record at its original offset (the"
            + " chain must start at 0; a hole fails the task when it is reached, after the records before it). 'renumber': the"
            + " records at 0, 1, 2, ... in their original order (compacted or transactional topics, whose chains have holes).";

    public static final String TARGET_TOPIC = "target.topic";
    static final String TARGET_TOPIC_DOC = "The topic to restore into, on the cluster Connect produces to. It must exist (it is never"
            + " created) and be empty, or hold the first records of this backup (a follower's or a one-shot restore's, with the"
            + " same offsets mode).";

    public static final String PARTITIONS = "partitions";
    static final String PARTITIONS_DOC = "Backup partitions to follow (comma-separated); empty means every partition directory the"
            + " backup has when the connector starts (it waits, listing every poll.interval.ms, while there is none).";

    public static final String PARTITION_MAPPING = "partition.mapping";
    static final String PARTITION_MAPPING_DOC = "Target partitions that differ from the backup's, as backup:target pairs, e.g. 0:3,1:4;"
            + " a partition not listed goes to the same-numbered one. Two backup partitions never go to one target partition.";

    public static final String ORIGINAL_OFFSET_HEADER = "original.offset.header";
    static final String ORIGINAL_OFFSET_HEADER_DOC = "With offsets=renumber, add each record's backed-up offset (decimal text) as a"
            + " header of this name, so consumers can map old offsets to new ones; empty for none.";

    public static final String TARGET_ADMIN_PREFIX = "target.admin.";
    public static final String TARGET_ADMIN_BOOTSTRAP = TARGET_ADMIN_PREFIX + "bootstrap.servers";
    static final String TARGET_ADMIN_BOOTSTRAP_DOC = "Bootstrap servers of the target cluster, for the admin client and consumer that"
            + " read the target's high watermark and last record. Empty means producer.override.bootstrap.servers. Other client"
            + " settings (security) go under the same 'target.admin.' prefix, e.g. target.admin.security.protocol; feed secrets"
            + " through config providers.";
    /** The target cluster: its client takes the target.admin.* settings, its bootstrap falls back to the producer's. */
    static final ClusterAccess TARGET = new ClusterAccess("target", TARGET_ADMIN_BOOTSTRAP, "producer.override.bootstrap.servers",
            TARGET_ADMIN_PREFIX + "*", "the task reads the target's high watermark, its position, and the target's last record,"
            + " to resume exactly there");

    /** The former name of admin.timeout.ms. */
    public static final String DEPRECATED_ADMIN_TIMEOUT_MS = "target.admin.timeout.ms";
    /** Old setting names that still work (validate() warns about them). */
    public static final DeprecatedAliases DEPRECATED = DeprecatedAliases.of(DEPRECATED_ADMIN_TIMEOUT_MS,
            ConnectorConfigFragment.ADMIN_TIMEOUT_MS);
    static final String ADMIN_TIMEOUT_MS_DOC = "Timeout of one query to the target cluster; a timeout is a transient failure.";

    public static final String POLL_INTERVAL_MS = "poll.interval.ms";
    static final String POLL_INTERVAL_MS_DOC = "After the last object listed so far, how often the backup is listed again for new"
            + " objects. The target trails the backup by about this plus the sink's flush interval.";

    public static final String CHAIN_START = "chain.start";
    static final String CHAIN_START_DOC = "The offset the chain must start at; a chain starting elsewhere fails the task, so objects"
            + " removed from its head are never missed silently.";

    static final String RETRY_BACKOFF_INITIAL_MS_DOC = "First delay after a transient failure (store or target cluster unreachable);"
            + " doubles on each further failure up to retry.backoff.max.ms. The task resumes at the target's high watermark.";



    public static final String UNTIL_TIMESTAMP = "until.timestamp";
    static final String UNTIL_TIMESTAMP_DOC = "Follow only up to this time (a standby frozen at a point, e.g. for forensics): per partition"
            + " the longest prefix whose records are all stamped at or before it, ISO-8601 with an offset (2026-11-30T14:02:00Z) or"
            + " epoch ms. At the cut the task logs it, sets follow-cut-reached to 1 and stays RUNNING without sending more. Empty:"
            + " no cut.";

    public static final String UNTIL_OFFSET = "until.offset";
    static final String UNTIL_OFFSET_DOC = "Follow each listed backup partition only up to and including this backup offset, as"
            + " partition:offset pairs, e.g. 0:41999,1:40210. Without until.timestamp every followed partition needs one.";

    /** Task config: the backup partitions of one task (set by the connector). */
    static final String TASK_PARTITIONS = "task.partitions";

    static final String GROUPS_SYNC_DOC = "Commit the consumer groups of the backup's newest group snapshot (written by the blob sink"
            + " beside the chains) on the target every groups.interval.ms, filtered by groups.include/groups.exclude, so that"
            + " consumers failing over to the standby resume where they were. Each offset is clamped to what the target holds (its"
            + " log start up to its high watermark: what this connector has restored so far), and a group with active members on"
            + " the target is never written. Needs offsets=preserve (renumbered offsets would need a translation). Off by"
            + " default: it writes the target's groups, which is right for a standby whose consumers are stopped only.";
    static final String GROUPS_INTERVAL_MS_DOC = "How often the backup's newest group snapshot is read and its offsets synced to the"
            + " target (a snapshot is only as fresh as the blob sink's groups.interval.ms). 0 turns the sync off, as groups.sync=false"
            + " does.";

    static final ConfigFragments FRAGMENTS = ConfigFragments.of(DEPRECATED,
            new StoreConfigFragment(GROUP_BACKUP, StoreConfigFragment.Access.READ, Map.of(
                    StoreConfigFragment.DESTINATION_NAME, DESTINATION_NAME_DOC, StoreConfigFragment.FILESYSTEM_ROOT, FILESYSTEM_ROOT_DOC,
                    StoreConfigFragment.S3_WRITE_ACCESS_KEY_ID, S3_WRITE_IDENTITY_DOC,
                    StoreConfigFragment.S3_WRITE_SECRET_ACCESS_KEY, S3_WRITE_IDENTITY_DOC, StoreConfigFragment.ENCRYPTION, ENCRYPTION_DOC,
                    StoreConfigFragment.ENCRYPTION_KEYS_DIR, ENCRYPTION_KEYS_DIR_DOC, StoreConfigFragment.ENCRYPTION_KEY_ID,
                    ENCRYPTION_KEY_ID_DOC)),
            ConfigFragment.settingsFrom(GROUP_BACKUP, 10,
                    Setting.of(TOPICS, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, Importance.HIGH, Width.MEDIUM, "Backed-up topic",
                            TOPICS_DOC).withValidator(new ConfigDef.NonEmptyString()),
                    Setting.of(CHAIN_START, Type.LONG, 0L, Importance.MEDIUM, Width.SHORT, "Chain start", CHAIN_START_DOC)
                            .withValidator(ConfigDef.Range.atLeast(0)),
                    Setting.of(PARTITIONS, Type.LIST, "", Importance.MEDIUM, Width.MEDIUM, "Partitions", PARTITIONS_DOC)
                            .withValidator(ConfigValidators.partitionList()),
                    Setting.of(UNTIL_TIMESTAMP, Type.STRING, "", Importance.LOW, Width.MEDIUM, "Until timestamp", UNTIL_TIMESTAMP_DOC)
                            .withValidator(RestoreCutSettings.timestampValidator()),
                    Setting.of(UNTIL_OFFSET, Type.LIST, "", Importance.LOW, Width.MEDIUM, "Until offsets", UNTIL_OFFSET_DOC)
                            .withValidator(RestoreCutSettings.offsetsValidator()),
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
                            ORIGINAL_OFFSET_HEADER_DOC),
                    Setting.of(TARGET_ADMIN_BOOTSTRAP, Type.STRING, "", Importance.HIGH, Width.LONG, "Target bootstrap servers",
                            TARGET_ADMIN_BOOTSTRAP_DOC)),
            ConnectorConfigFragment.adminTimeout(GROUP_TARGET, ADMIN_TIMEOUT_MS_DOC),
            ConnectorConfigFragment.deprecatedAdminTimeout(DEPRECATED_ADMIN_TIMEOUT_MS, GROUP_TARGET),
            ConfigFragment.settings(GROUP_OPERATIONS, Setting.of(POLL_INTERVAL_MS, Type.LONG, 5_000L, Importance.MEDIUM, Width.SHORT,
                    "Poll interval (ms)", POLL_INTERVAL_MS_DOC).withValidator(ConfigDef.Range.atLeast(100))),
            ConnectorConfigFragment.retryBackoff(GROUP_OPERATIONS,
                    Map.of(ConnectorConfigFragment.RETRY_BACKOFF_INITIAL_MS, RETRY_BACKOFF_INITIAL_MS_DOC)),
            HeartbeatConfigFragment.FRAGMENT,
            GroupSyncConfigFragment.withSync(GROUP_GROUPS, false, GROUPS_SYNC_DOC,
                    Map.of(GroupSyncConfigFragment.GROUPS_INTERVAL_MS, GROUPS_INTERVAL_MS_DOC)));

    public static final ConfigDef CONFIG_DEF = FRAGMENTS.configDef();

    public ChainSourceConfig(Map<?, ?> props) {
        super(FRAGMENTS, props);
    }

    /** A compaction=log backup (snapshots): refused, there is nothing to follow. */
    public boolean snapshotBackup() {
        return "log".equalsIgnoreCase(getString(COMPACTION));
    }

    /**
     * The cut of the followed partitions (until.timestamp, until.offset).
     *
     * @throws ConfigException when until.offset names no offset for a followed partition and until.timestamp is empty
     */
    public RestoreCut restoreCut(List<Integer> followed) {
        RestoreCut cut = configuredCut();
        RestoreCutSettings.untilOffsetProblem(cut, followed).ifPresent(problem -> {
            throw new ConfigException(UNTIL_OFFSET, getList(UNTIL_OFFSET), problem);
        });
        return cut;
    }

    /** until.timestamp and until.offset as configured, before the rule over the followed partitions. */
    RestoreCut configuredCut() {
        String ts = getString(UNTIL_TIMESTAMP);
        return new RestoreCut(ts == null || ts.isBlank() ? null : RestoreCut.parseTimestamp(ts),
                RestoreCut.parseOffsets(getList(UNTIL_OFFSET)));
    }

    public String sourceTopic() {
        return getString(TOPICS).trim();
    }

    /** The chain directory name: destination.name with ${topic} resolved. */
    public String destinationName() {
        return getString(StoreConfigFragment.DESTINATION_NAME).trim().replace("${topic}", sourceTopic());
    }

    /** Opens the backup's store; it is only listed and read, so the write identity may be absent (the read one stands in). */
    public Store openStore() {
        return StoreFactory.open(storeSettings(), destinationName());
    }

    /** The backup's store whose S3 calls give up after {@code s3CallTimeout} (validate() answers within seconds). */
    Store openStore(Duration s3CallTimeout) {
        Map<String, String> settings = storeSettings();
        if (StoreConfigFragment.DESTINATION_TYPE_S3.equalsIgnoreCase(getString(StoreConfigFragment.DESTINATION_TYPE))) {
            return new S3Store(StoreFactory.s3Settings(settings).withCallTimeout(s3CallTimeout), destinationName());
        }
        return StoreFactory.open(settings, destinationName());
    }

    private Map<String, String> storeSettings() {
        Map<String, String> settings = new HashMap<>(originalsStrings());
        if (settings.getOrDefault(StoreFactory.S3_WRITE_ACCESS_KEY_ID, "").isBlank()) {
            settings.put(StoreFactory.S3_WRITE_ACCESS_KEY_ID, settings.getOrDefault(StoreFactory.S3_READ_ACCESS_KEY_ID, ""));
            settings.put(StoreFactory.S3_WRITE_SECRET_ACCESS_KEY, settings.getOrDefault(StoreFactory.S3_READ_SECRET_ACCESS_KEY, ""));
        }
        return settings;
    }

    /**
     * The keys the backup's encrypted objects are read with (encryption.keys.dir; the sink's encryption.key.id is not
     * needed to read).
     *
     * @throws dev.mirrorv3.chain.crypto.KeysDirException naming the setting or the key file that is wrong
     */
    public KeyRing keys() {
        String dir = originalsStrings().getOrDefault(StoreConfigFragment.ENCRYPTION_KEYS_DIR, "").trim();
        return dir.isEmpty() ? KeyRing.empty() : KeyRing.load(java.nio.file.Path.of(dir));
    }

    public EnvelopeSettings envelope() {
        return StoreFactory.envelope(originalsStrings());
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
        Map<String, Object> c = new HashMap<>(originalsWithPrefix(TARGET_ADMIN_PREFIX));
        c.remove("timeout.ms"); // target.admin.timeout.ms, the former name of admin.timeout.ms, is not a client setting
        c.put("bootstrap.servers", targetBootstrap(originalsStrings()));
        return c;
    }

    static String targetBootstrap(Map<String, String> props) {
        return TARGET.bootstrap(props);
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
