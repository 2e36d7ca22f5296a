package dev.mirrorv3.kafka.config;

import dev.mirrorv3.kafka.FailureVerdict;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * Operational settings every connector defines the same way (source admin client, admin timeout, retry backoff,
 * partitions watch; the heartbeat is {@link HeartbeatConfigFragment}): one definition of key, type, default, validator
 * and display name. Each factory returns the {@link ConfigFragment} of a few of them in the connector's group, with
 * the documentation that differs for the connector (by key); the others keep the shared text, as
 * {@link StoreConfigFragment} does.
 */
public final class ConnectorConfigFragment {
    public static final String SOURCE_ADMIN_PREFIX = "source.admin.";
    public static final String SOURCE_ADMIN_BOOTSTRAP = SOURCE_ADMIN_PREFIX + "bootstrap.servers";
    /** The timeout of one admin query, under one name in every connector. */
    public static final String ADMIN_TIMEOUT_MS = "admin.timeout.ms";
    public static final String RETRY_BACKOFF_INITIAL_MS = "retry.backoff.initial.ms";
    public static final String RETRY_BACKOFF_MAX_MS = "retry.backoff.max.ms";
    public static final String PARTITIONS_WATCH_INTERVAL_MS = "partitions.watch.interval.ms";
    public static final String PARTITION_FAILURE = "partition.failure";
    public static final String PARTITION_RETRY_MAX_MS = "partition.retry.max.ms";

    static final String SOURCE_ADMIN_BOOTSTRAP_DOC = """
            Bootstrap servers of the source cluster, for the admin client that reads log-start \
            offsets and high watermarks. Empty means consumer.override.bootstrap.servers. Other admin client settings \
            (security) go under the same 'source.admin.' prefix, e.g. source.admin.security.protocol; feed secrets \
            through config providers (${file:...}, ${env:...}).""";
    static final String SOURCE_ADMIN_TIMEOUT_MS_DOC = """
            Timeout of one admin query to the source cluster; a timeout is a transient \
            failure.""";
    static final long ADMIN_TIMEOUT_MS_DEFAULT = 15_000L;
    static final long ADMIN_TIMEOUT_MS_MIN = 100L;
    static final long RETRY_BACKOFF_INITIAL_MS_DEFAULT = 1_000L;
    static final long RETRY_BACKOFF_MAX_MS_DEFAULT = 60_000L;
    static final String RETRY_BACKOFF_INITIAL_MS_DOC = """
            First delay after a transient failure (store or source cluster unreachable); \
            doubles on each further failure up to retry.backoff.max.ms. The buffer is kept meanwhile.""";
    static final String RETRY_BACKOFF_MAX_MS_DOC = """
            Largest delay between retries of a transient failure; at least \
            retry.backoff.initial.ms.""";
    static final long PARTITION_RETRY_MAX_MS_DEFAULT = 300_000L;
    static final String PARTITION_FAILURE_DOC = """
            What a failure that belongs to one partition does (another writer's object in its chain, a lost \
            position, a destination ahead, a record that cannot be converted, a key id missing, a re-created source topic, \
            a prefix the store refuses): 'partition' isolates it (that partition is paused, its buffer dropped, \
            mirror_v3_partition_failed set to 1 and the reason logged and shown by mirror-v3 status; the task and the other \
            partitions go on), 'task' fails the whole task with it. Failures of the task as a whole (credentials, \
            configuration, every partition refused) fail the task either way (docs/operations.md, "A failed partition").""";
    static final String PARTITION_RETRY_MAX_MS_DOC = """
            Longest delay between two attempts to open again a partition isolated for a condition that can \
            clear by itself (a key id not yet in the keys dir, a prefix the store refuses); the delay starts at \
            retry.backoff.initial.ms and doubles. A partition isolated for a condition that needs an operator is retried by \
            restarting the tasks.""";

    static final String PARTITIONS_WATCH_INTERVAL_MS_DOC = """
            How often the connector reads the partition counts of its topics \
            (one metadata request to the source cluster). When a topic has grown, the connector restarts its tasks, and \
            they follow the new partitions: a partition added to a topic is followed within this interval plus a task \
            restart, with no action. Keep it well below the consumer's metadata.max.age.ms (5 minutes by default): a \
            consumer that notices a new partition first fails its task once (NoOffsetForPartitionException), and the next \
            look replaces that task. Not with topics.regex.""";

    private ConnectorConfigFragment() {
    }

    /** source.admin.bootstrap.servers and admin.timeout.ms in {@code group}; {@code docs} by key where the connector's differ. */
    public static ConfigFragment sourceAdmin(String group, Map<String, String> docs) {
        return ConfigFragment.settings(group,
                Setting.of(SOURCE_ADMIN_BOOTSTRAP, Type.STRING, "", Importance.HIGH, Width.LONG, "Source bootstrap servers",
                        docs.getOrDefault(SOURCE_ADMIN_BOOTSTRAP, SOURCE_ADMIN_BOOTSTRAP_DOC)),
                adminTimeoutSetting(docs.getOrDefault(ADMIN_TIMEOUT_MS, SOURCE_ADMIN_TIMEOUT_MS_DOC)));
    }

    /** admin.timeout.ms in {@code group}: one admin query's timeout, 15 s by default, at least 100 ms. */
    public static ConfigFragment adminTimeout(String group, String doc) {
        return ConfigFragment.settings(group, adminTimeoutSetting(doc));
    }

    private static Setting adminTimeoutSetting(String doc) {
        return Setting.of(ADMIN_TIMEOUT_MS, Type.LONG, ADMIN_TIMEOUT_MS_DEFAULT, Importance.LOW, Width.SHORT, "Admin timeout (ms)", doc)
                .withValidator(ConfigDef.Range.atLeast(ADMIN_TIMEOUT_MS_MIN));
    }

    /**
     * {@code alias}, the former name of admin.timeout.ms (see {@link DeprecatedAliases}), in {@code group}: no default, so
     * that the current name's default applies when neither is set; the same range.
     */
    public static ConfigFragment deprecatedAdminTimeout(String alias, String group) {
        return ConfigFragment.settings(group, Setting.of(alias, Type.LONG, null, Importance.LOW, Width.SHORT, alias + " (deprecated)",
                "Deprecated: the former name of " + ADMIN_TIMEOUT_MS + ", still read when " + ADMIN_TIMEOUT_MS
                        + " is not set (validate() warns); rename it.")
                .withValidator(ConfigValidators.nullOr(ConfigDef.Range.atLeast(ADMIN_TIMEOUT_MS_MIN))));
    }

    /**
     * retry.backoff.initial.ms and retry.backoff.max.ms in {@code group}, with their rule ({@link #validateRetryBackoff}),
     * then what a partition's failure does (partition.failure) and how often one that can clear by itself is retried
     * (partition.retry.max.ms).
     */
    public static ConfigFragment retryBackoff(String group, Map<String, String> docs) {
        List<Setting> rows = List.of(
                Setting.of(RETRY_BACKOFF_INITIAL_MS, Type.LONG, RETRY_BACKOFF_INITIAL_MS_DEFAULT, Importance.LOW, Width.SHORT,
                        "Retry backoff initial (ms)", RETRY_BACKOFF_INITIAL_MS_DOC).withValidator(ConfigDef.Range.atLeast(1)).docFrom(docs),
                Setting.of(RETRY_BACKOFF_MAX_MS, Type.LONG, RETRY_BACKOFF_MAX_MS_DEFAULT, Importance.LOW, Width.SHORT,
                        "Retry backoff max (ms)", RETRY_BACKOFF_MAX_MS_DOC).withValidator(ConfigDef.Range.atLeast(1)).docFrom(docs),
                Setting.of(PARTITION_FAILURE, Type.STRING, FailureVerdict.Isolation.PARTITION.configValue(), Importance.MEDIUM,
                        Width.SHORT, "Partition failure", PARTITION_FAILURE_DOC)
                        .withValidator(ConfigDef.CaseInsensitiveValidString.in(FailureVerdict.Isolation.PARTITION.configValue(),
                                FailureVerdict.Isolation.TASK.configValue()))
                        .withRecommender(ConfigRecommenders.fixed(FailureVerdict.Isolation.PARTITION.configValue(),
                                FailureVerdict.Isolation.TASK.configValue())).docFrom(docs),
                Setting.of(PARTITION_RETRY_MAX_MS, Type.LONG, PARTITION_RETRY_MAX_MS_DEFAULT, Importance.LOW, Width.SHORT,
                        "Partition retry max (ms)", PARTITION_RETRY_MAX_MS_DOC).withValidator(ConfigDef.Range.atLeast(1)).docFrom(docs));
        return new ConfigFragment() {
            @Override
            public void define(SettingsTable table) {
                table.add(group, rows);
            }

            @Override
            public void validate(Map<String, String> props, ConnectorChecks checks, boolean offline) {
                validateRetryBackoff(props, checks);
            }
        };
    }

    /**
     * retry.backoff.max.ms is at least retry.backoff.initial.ms: the delay doubles from the first up to the largest
     * ({@code dev.mirrorv3.kafka.Backoff}), which refuses the reverse when a task starts. The error goes on the one of
     * the two that is set (max when both are). Values that are not numbers yet (config provider references) are left
     * to the worker.
     */
    public static void validateRetryBackoff(Map<String, String> props, ConnectorChecks checks) {
        if (checks.hasErrors(RETRY_BACKOFF_INITIAL_MS) || checks.hasErrors(RETRY_BACKOFF_MAX_MS)) {
            return;
        }
        long initial;
        long max;
        try {
            initial = Long.parseLong(props.getOrDefault(RETRY_BACKOFF_INITIAL_MS, "" + RETRY_BACKOFF_INITIAL_MS_DEFAULT).trim());
            max = Long.parseLong(props.getOrDefault(RETRY_BACKOFF_MAX_MS, "" + RETRY_BACKOFF_MAX_MS_DEFAULT).trim());
        } catch (NumberFormatException e) {
            return;
        }
        if (max < initial) {
            checks.error(props.containsKey(RETRY_BACKOFF_MAX_MS) ? RETRY_BACKOFF_MAX_MS : RETRY_BACKOFF_INITIAL_MS, RETRY_BACKOFF_MAX_MS
                    + "=" + max + " is below " + RETRY_BACKOFF_INITIAL_MS + "=" + initial + ": the delay doubles from the initial one"
                    + " up to the maximum; raise " + RETRY_BACKOFF_MAX_MS + " or lower " + RETRY_BACKOFF_INITIAL_MS);
        }
    }

    /**
     * The largest delay between retries: retry.backoff.max.ms, or retry.backoff.initial.ms when that is larger. validate()
     * refuses such a pair ({@link #validateRetryBackoff}); a config built without it (a task's) still gets a backoff that
     * {@code dev.mirrorv3.kafka.Backoff} accepts, the same in every connector.
     */
    public static long retryBackoffMaxMs(AbstractConfig config) {
        return Math.max(config.getLong(RETRY_BACKOFF_INITIAL_MS), config.getLong(RETRY_BACKOFF_MAX_MS));
    }

    /** partitions.watch.interval.ms in {@code group}: 10 s by default, at least 100 ms. */
    public static ConfigFragment partitionsWatch(String group, Map<String, String> docs) {
        return ConfigFragment.settings(group, Setting.of(PARTITIONS_WATCH_INTERVAL_MS, Type.LONG, 10_000L, Importance.LOW, Width.SHORT,
                "Partitions watch interval (ms)", PARTITIONS_WATCH_INTERVAL_MS_DOC).withValidator(ConfigDef.Range.atLeast(100))
                .docFrom(docs));
    }

    /**
     * The source cluster's admin client settings: everything under source.admin. (less timeout.ms, the blob sink's former
     * name of admin.timeout.ms), bootstrap defaulting to consumer.override.bootstrap.servers, the client id unless one is
     * set.
     */
    public static Map<String, Object> sourceAdminConfig(AbstractConfig config, String clientId) {
        Map<String, Object> admin = new HashMap<>(config.originalsWithPrefix(SOURCE_ADMIN_PREFIX));
        admin.remove("timeout.ms");
        String bootstrap = config.getString(SOURCE_ADMIN_BOOTSTRAP);
        if (bootstrap.isBlank()) {
            Object override = config.originals().get("consumer.override.bootstrap.servers");
            bootstrap = override == null ? "" : override.toString();
        }
        admin.put("bootstrap.servers", bootstrap);
        admin.putIfAbsent("client.id", clientId);
        return admin;
    }
}
