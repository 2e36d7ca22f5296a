package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.store.s3.S3Settings;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.kafka.config.ConfigFragment;
import dev.mirrorv3.kafka.config.ConfigFragments;
import dev.mirrorv3.kafka.config.ConfigGroups;
import dev.mirrorv3.kafka.config.ConfigRecommenders;
import dev.mirrorv3.kafka.config.ConfigValidators;
import dev.mirrorv3.kafka.config.ConnectorConfigFragment;
import dev.mirrorv3.kafka.config.DeprecatedAliases;
import dev.mirrorv3.kafka.config.DestinationSettings;
import dev.mirrorv3.kafka.config.GroupSyncConfigFragment;
import dev.mirrorv3.kafka.config.HeartbeatConfigFragment;
import dev.mirrorv3.kafka.config.Setting;
import dev.mirrorv3.kafka.config.SinkConsumerRules;
import dev.mirrorv3.kafka.config.StoreConfigFragment;
import dev.mirrorv3.kafka.config.StoreSettings;
import dev.mirrorv3.kafka.config.WatchedConnectorConfig;
import dev.mirrorv3.kafka.groups.GroupSelection;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/** The BlobSinkConnector's settings: key/doc/default triplets, groups, validators and typed accessors. */
public final class BlobSinkConfig extends WatchedConnectorConfig {

    public static final String TOPIC_PLACEHOLDER = DestinationSettings.TOPIC_PLACEHOLDER;

    public static final String DESTINATIONS = DestinationSettings.DESTINATIONS;
    static final String DESTINATIONS_DOC = """
            Several destinations for one read of the source (a tee), by name ([a-z0-9][a-z0-9-]*, comma-separated), \
            e.g. local,offsite. Each destination's settings are the single destination's keys under its own prefix: \
            destinations.<name>.destination.type, .filesystem.root, .s3.*, .encryption*, .format, .compression, \
            .keys.type, .values.type, .destination.name and, optionally, .flush.max.records/.flush.max.bytes/.flush.max.time.ms \
            (default the connector's). Each record is read and converted once and written to every destination; each keeps \
            its own chain, position, cadence and an equal share of buffer.max.bytes, and one that cannot write falls behind \
            and catches up without holding the others back. Empty: one destination, the settings without a prefix.""";

    private static final String GROUP_FLUSH = "Flush";
    private static final String GROUP_METADATA = "Topic and group metadata";


    public static final String FLUSH_MAX_RECORDS = "flush.max.records";
    static final String FLUSH_MAX_RECORDS_DOC = "Write a partition's buffer as one object when it holds this many records.";

    public static final String FLUSH_MAX_BYTES = "flush.max.bytes";
    static final String FLUSH_MAX_BYTES_DOC = """
            Write a partition's buffer as one object when its payload (keys, values, header keys \
            and values) reaches this many bytes.""";

    public static final String FLUSH_MAX_TIME_MS = "flush.max.time.ms";
    static final String FLUSH_MAX_TIME_MS_DOC = """
            Write a partition's buffer as one object when its oldest record has waited this long, \
            also when no new record arrives (a timer). Bounds how much a backup trails its source.""";

    public static final String BUFFER_MAX_BYTES = "buffer.max.bytes";
    static final String BUFFER_MAX_BYTES_DOC = """
            Task-wide cap on buffered payload bytes over all partitions. When a record would exceed \
            it, the largest buffer is written early, so heap stays bounded however many partitions are busy; buffers being \
            written count until they are durable, and put() waits for them (at most retry.backoff.max.ms, then the batch \
            is delivered again after a pause) rather than grow past the cap. A tee (destinations) splits it equally between \
            its destinations: to give each destination what a connector of its own would have, set the sum (268435456 for \
            two destinations at the default).""";

    public static final String FLUSH_THREADS = "flush.threads";
    static final String FLUSH_THREADS_DOC = """
            Threads per task that encode and commit objects, so that the task thread only converts \
            and buffers records while earlier buffers are written: at most two commits per partition, the next object \
            encoded while the one before it uploads and created only after it is durable (a chain is written in order), \
            several partitions in parallel. -1: min(4, the worker's cores). 0: every flush runs on the \
            task thread inside put(). Buffers being written count against buffer.max.bytes \
            until they are durable. compaction=log always writes its snapshots on the task thread.""";
    /** -1 stands for min(4, cores): a default in the generated reference must not depend on the machine that built it. */
    static final int FLUSH_THREADS_AUTO = -1;

    public static final String COMPACTION = "compaction";
    public static final String COMPACTION_NONE = "none";
    public static final String COMPACTION_LOG = "log";
    static final String COMPACTION_DOC = """
            What each object holds. 'none': a chain, every record of a slice of the partition's history \
            (restorable with its offsets). 'log': a snapshot, the latest record of every live key up to the object's end offset, \
            sorted by key bytes (a null value deletes its key; a null key fails the task), for compacted topics whose history \
            is not needed: its size follows the number of keys. Parquet only. Each flush writes a whole snapshot, so in this \
            mode flush.max.time.ms defaults to one hour and flush.max.records/flush.max.bytes to no limit; keep the flush \
            interval well below the topic's delete.retention.ms, or a tombstone removed by compaction before it was read \
            leaves its key in the snapshots. Restore with --offsets renumber.""";
    /** Flush interval of compaction=log when flush.max.time.ms is not set: a snapshot costs a pass over every key. */
    static final long COMPACTION_LOG_FLUSH_MAX_TIME_MS = 3_600_000L;

    public static final String COMPACTION_SPILL_DIR = "compaction.spill.dir";
    static final String COMPACTION_SPILL_DIR_DOC = """
            With compaction=log, the local directory where records gathered for the next \
            snapshot are spilled once buffer.max.bytes is reached, and where the previous snapshot is copied to be merged \
            (it needs about twice the size of a snapshot, plus the records of one flush interval). Empty means the JVM's \
            temporary directory; a subdirectory per connector and partition is used either way.""";

    public static final String PARTITIONS = "partitions";
    static final String PARTITIONS_DOC = "Back up only these partitions (comma-separated); empty means all. The others are paused.";


    public static final String CHAIN_CHECK_INTERVAL_MS = "chain.check.interval.ms";
    static final String CHAIN_CHECK_INTERVAL_MS_DOC = """
            How often the chain of each partition that committed an object since its last check is checked \
            against what this task wrote (catches a second writer or a manual change between flushes): the objects after \
            its newest manifest are listed and one manifest's objects probed (every object within a pass over the \
            manifests), at a cost that does not grow with the chain; an idle partition costs no request. Every flush also \
            checks the chain's tail first, at O(1) cost.""";

    public static final String SOURCE_LAG_INTERVAL_MS = "source.lag.interval.ms";
    static final String SOURCE_LAG_INTERVAL_MS_DOC = """
            How often the source lag metric (the source's high watermark minus the next \
            durable offset, mirror_v3_source_lag_offsets) is refreshed, with one admin query for all the task's partitions \
            on a thread of its own; 0 turns the metric off.""";

    /** The former name of admin.timeout.ms. */
    public static final String DEPRECATED_ADMIN_TIMEOUT_MS = "source.admin.timeout.ms";
    /** Old setting names that still work (validate() warns about them). */
    public static final DeprecatedAliases DEPRECATED = DeprecatedAliases.of(DEPRECATED_ADMIN_TIMEOUT_MS,
            ConnectorConfigFragment.ADMIN_TIMEOUT_MS);

    static final String PARTITIONS_WATCH_INTERVAL_MS_DOC = """
            How often the connector reads the partition counts of its topics (one \
            metadata request to the source cluster). When a topic has grown, the connector restarts its task, which backs the \
            new partitions up from their log start: a partition added to a topic is followed within this interval plus a task \
            restart, with no action. Keep it well below the consumer's metadata.max.age.ms (5 minutes by default): a \
            consumer that notices a new partition first fails its task once (NoOffsetForPartitionException), and the next \
            look replaces that task. Not with topics.regex.""";

    public static final String METADATA_INTERVAL_MS = "metadata.interval.ms";
    static final String METADATA_INTERVAL_MS_DOC = """
            How often the backed-up topics' metadata (partition count, replication factor, \
            topic id, the configs set on the topic) is read from the source cluster; a new snapshot is written beside the \
            chains (_meta/topic/) only when something changed. 'mirror-v3 restore --create-topic' creates the topic from the \
            newest one. 0 turns topic snapshots off.""";

    static final String GROUPS_INTERVAL_MS_DOC = """
            How often the committed offsets of the consumer groups on the backed-up partitions \
            are read (batched: a few requests however many groups) and, when they changed, written beside the chains \
            (_meta/groups/) with each partition's durable next offset. 'mirror-v3 restore --groups' commits them after the \
            records. 0 turns group snapshots off.""";

    static final String GROUPS_INCLUDE_DOC = """
            The consumer groups whose offsets are snapshotted: a Java regular expression matched \
            against the whole group id.""";

    static final String GROUPS_EXCLUDE_DOC = """
            Consumer groups never snapshotted, even when groups.include matches them (exclude wins): \
            a Java regular expression; empty for none. The connector's own group and ids starting with __ are always left out.""";

    static final ConfigFragments FRAGMENTS = ConfigFragments.of(DEPRECATED,
            new StoreConfigFragment(ConfigGroups.DESTINATION, StoreConfigFragment.Access.WRITE, Map.of()),
            ConfigFragment.settings(ConfigGroups.DESTINATION, Setting.of(DESTINATIONS, Type.LIST, "", Importance.MEDIUM, Width.MEDIUM,
                    "Destinations (tee)", DESTINATIONS_DOC)),
            ConfigFragment.settings(GROUP_FLUSH,
                    Setting.of(FLUSH_MAX_RECORDS, Type.LONG, 100_000L, Importance.HIGH, Width.SHORT, "Flush max records",
                            FLUSH_MAX_RECORDS_DOC).withValidator(ConfigDef.Range.atLeast(1)),
                    Setting.of(FLUSH_MAX_BYTES, Type.LONG, 16L * 1024 * 1024, Importance.HIGH, Width.SHORT, "Flush max bytes",
                            FLUSH_MAX_BYTES_DOC).withValidator(ConfigDef.Range.atLeast(1)),
                    Setting.of(FLUSH_MAX_TIME_MS, Type.LONG, 60_000L, Importance.HIGH, Width.SHORT, "Flush max time (ms)",
                            FLUSH_MAX_TIME_MS_DOC).withValidator(ConfigDef.Range.atLeast(10)),
                    Setting.of(BUFFER_MAX_BYTES, Type.LONG, 128L * 1024 * 1024, Importance.MEDIUM, Width.SHORT, "Task buffer cap (bytes)",
                            BUFFER_MAX_BYTES_DOC).withValidator(ConfigDef.Range.atLeast(1)),
                    Setting.of(FLUSH_THREADS, Type.INT, FLUSH_THREADS_AUTO, Importance.LOW, Width.SHORT, "Flush threads", FLUSH_THREADS_DOC)
                            .withValidator(ConfigDef.Range.between(FLUSH_THREADS_AUTO, 64)),
                    Setting.of(COMPACTION, Type.STRING, COMPACTION_NONE, Importance.MEDIUM, Width.SHORT, "Compaction", COMPACTION_DOC)
                            .withValidator(ConfigValidators.oneOf(COMPACTION_NONE, COMPACTION_LOG))
                            .withRecommender(ConfigRecommenders.fixed(COMPACTION_NONE, COMPACTION_LOG)),
                    Setting.of(COMPACTION_SPILL_DIR, Type.STRING, "", Importance.LOW, Width.LONG, "Snapshot spill directory",
                            COMPACTION_SPILL_DIR_DOC)),
            ConnectorConfigFragment.sourceAdmin(ConfigGroups.SOURCE_CLUSTER, Map.of()),
            ConfigFragment.settings(ConfigGroups.SOURCE_CLUSTER,
                    Setting.of(PARTITIONS, Type.LIST, "", Importance.MEDIUM, Width.MEDIUM, "Partitions", PARTITIONS_DOC)
                            .withValidator(ConfigValidators.partitionList())),
            ConnectorConfigFragment.deprecatedAdminTimeout(DEPRECATED_ADMIN_TIMEOUT_MS, ConfigGroups.SOURCE_CLUSTER),
            ConnectorConfigFragment.retryBackoff(ConfigGroups.OPERATIONS, Map.of()),
            ConfigFragment.settings(ConfigGroups.OPERATIONS,
                    Setting.of(CHAIN_CHECK_INTERVAL_MS, Type.LONG, 60_000L, Importance.LOW, Width.SHORT, "Chain check interval (ms)",
                            CHAIN_CHECK_INTERVAL_MS_DOC).withValidator(ConfigDef.Range.atLeast(100))),
            HeartbeatConfigFragment.FRAGMENT,
            ConfigFragment.settings(ConfigGroups.OPERATIONS,
                    Setting.of(SOURCE_LAG_INTERVAL_MS, Type.LONG, 30_000L, Importance.LOW, Width.SHORT, "Source lag interval (ms)",
                            SOURCE_LAG_INTERVAL_MS_DOC).withValidator(ConfigDef.Range.atLeast(0))),
            ConnectorConfigFragment.partitionsWatch(ConfigGroups.OPERATIONS,
                    Map.of(ConnectorConfigFragment.PARTITIONS_WATCH_INTERVAL_MS, PARTITIONS_WATCH_INTERVAL_MS_DOC)),
            ConfigFragment.settings(GROUP_METADATA, Setting.of(METADATA_INTERVAL_MS, Type.LONG, 60_000L, Importance.MEDIUM, Width.SHORT,
                    "Topic metadata interval (ms)", METADATA_INTERVAL_MS_DOC).withValidator(ConfigDef.Range.atLeast(0))),
            GroupSyncConfigFragment.interval(GROUP_METADATA, GROUPS_INTERVAL_MS_DOC),
            GroupSyncConfigFragment.selection(GROUP_METADATA, Map.of(GroupSyncConfigFragment.GROUPS_INCLUDE, GROUPS_INCLUDE_DOC,
                    GroupSyncConfigFragment.GROUPS_EXCLUDE, GROUPS_EXCLUDE_DOC)),
            new SinkConsumerRules("blob sink", "backup"));

    public static final ConfigDef CONFIG_DEF = FRAGMENTS.configDef();

    public BlobSinkConfig(Map<?, ?> props) {
        super(FRAGMENTS, props);
    }

    /** The store settings of this config's destination (a tee's through {@link #forDestination}), typed. */
    public StoreSettings store() {
        return StoreSettings.of(originalsStrings());
    }

    public EnvelopeSettings envelope() {
        return store().envelope();
    }

    /**
     * Keys and the key id of new objects, read from the keys dir now.
     *
     * @throws dev.mirrorv3.chain.crypto.KeysDirException naming the setting or the key file that is wrong
     */
    public ObjectEncryption encryption() {
        return store().encryption();
    }

    /** The flush limits; with compaction=log, the ones the user did not set are the snapshot mode's (see COMPACTION_DOC). */
    public FlushPolicy flushPolicy() {
        if (!snapshots()) {
            return new FlushPolicy(getLong(FLUSH_MAX_RECORDS), getLong(FLUSH_MAX_BYTES), getLong(FLUSH_MAX_TIME_MS));
        }
        Map<String, Object> set = originals();
        return new FlushPolicy(set.containsKey(FLUSH_MAX_RECORDS) ? getLong(FLUSH_MAX_RECORDS) : Long.MAX_VALUE,
                set.containsKey(FLUSH_MAX_BYTES) ? getLong(FLUSH_MAX_BYTES) : Long.MAX_VALUE,
                set.containsKey(FLUSH_MAX_TIME_MS) ? getLong(FLUSH_MAX_TIME_MS) : COMPACTION_LOG_FLUSH_MAX_TIME_MS);
    }

    /** compaction=log: each object is a snapshot of the latest record per key. */
    public boolean snapshots() {
        return COMPACTION_LOG.equalsIgnoreCase(getString(COMPACTION));
    }

    /** Where a connector's snapshot spill files go: compaction.spill.dir or the JVM's temporary directory, per connector. */
    public Path spillDir(String connectorName) {
        String dir = getString(COMPACTION_SPILL_DIR);
        Path base = dir.isBlank() ? Path.of(System.getProperty("java.io.tmpdir"), "mirror-v3-snapshots") : Path.of(dir);
        return base.resolve(connectorName.replaceAll("[^A-Za-z0-9._-]", "_"));
    }

    /** Commit threads: the setting, or min(4, cores) for -1; 0 means on the task thread. */
    public int flushThreads() {
        int threads = getInt(FLUSH_THREADS);
        return threads == FLUSH_THREADS_AUTO ? Math.min(4, Runtime.getRuntime().availableProcessors()) : threads;
    }

    public long bufferMaxBytes() {
        return getLong(BUFFER_MAX_BYTES);
    }

    public String destinationType() {
        return store().destinationType();
    }

    /** The S3 destination, read by the one shared factory (the restore CLI reads the same settings). */
    public S3Settings s3Settings() {
        return store().s3Settings();
    }

    public Path filesystemRoot() {
        return store().filesystemRoot();
    }

    /** The chain directory name for a topic: destination.name (default the connector name) with ${topic} resolved. */
    public String destinationName(String connectorName, String topic) {
        return store().chainName(connectorName, topic);
    }

    /** The destinations: this config's one, or each of a tee's (destinations). */
    public List<DestinationSettings> destinations() {
        return DestinationSettings.all(originalsStrings());
    }

    /** Whether the connector writes several destinations. */
    public boolean tee() {
        return DestinationSettings.isTee(originalsStrings());
    }

    /**
     * The settings one destination of a tee is written with: its view, with an equal share of buffer.max.bytes ({@code count}
     * destinations); the config itself without a tee.
     */
    public BlobSinkConfig forDestination(DestinationSettings d, int count) {
        if (!tee()) {
            return this;
        }
        Map<String, String> view = new HashMap<>(d.settings());
        view.put(BUFFER_MAX_BYTES, Long.toString(Math.max(1, bufferMaxBytes() / count)));
        return new BlobSinkConfig(view);
    }

    public List<Integer> partitions() {
        return getList(PARTITIONS).stream().map(String::trim).map(Integer::valueOf).toList();
    }

    /** Admin client settings: everything under source.admin., bootstrap defaulting to the consumer override. */
    public Map<String, Object> sourceAdminConfig() {
        return sourceAdminConfig("mirror-v3-blob-sink-admin");
    }

    public long chainCheckIntervalMs() {
        return getLong(CHAIN_CHECK_INTERVAL_MS);
    }

    public long sourceLagIntervalMs() {
        return getLong(SOURCE_LAG_INTERVAL_MS);
    }

    public long metadataIntervalMs() {
        return getLong(METADATA_INTERVAL_MS);
    }

    /** The groups to snapshot; the connector's own consumer group is never one of them. */
    public GroupSelection groupSelection(String connectorName) {
        return GroupSyncConfigFragment.selection(this,
                List.of(originalsStrings().getOrDefault("consumer.override.group.id", "connect-" + connectorName)));
    }

}
