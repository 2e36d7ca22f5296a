package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.chain.envelope.ValueType;
import dev.mirrorv3.kafka.config.ConfigFragment;
import dev.mirrorv3.kafka.config.ConfigFragments;
import dev.mirrorv3.kafka.config.ConfigGroups;
import dev.mirrorv3.kafka.config.ConfigRecommenders;
import dev.mirrorv3.kafka.config.ConnectorConfigFragment;
import dev.mirrorv3.kafka.config.GroupSyncConfigFragment;
import dev.mirrorv3.kafka.config.HeartbeatConfigFragment;
import dev.mirrorv3.kafka.config.Setting;
import dev.mirrorv3.kafka.config.SinkConsumerRules;
import dev.mirrorv3.kafka.config.StoreConfigFragment;
import dev.mirrorv3.kafka.config.StoreSettings;
import dev.mirrorv3.kafka.config.WatchedConnectorConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** The KafkaSinkConnector's settings: key/doc/default triplets, groups, validators and typed accessors. */
public final class KafkaSinkConfig extends WatchedConnectorConfig {

    public static final String TOPIC_PLACEHOLDER = "${topic}";

    private static final String GROUP_SECURITY = "Destination security";
    private static final String GROUP_GROUPS = "Consumer groups";

    public static final String DESTINATION_PREFIX = "destination.";
    public static final String DESTINATION_PRODUCER_PREFIX = DESTINATION_PREFIX + "producer.";
    public static final String DESTINATION_ADMIN_PREFIX = DESTINATION_PREFIX + "admin.";

    public static final String DESTINATION_BOOTSTRAP = DESTINATION_PREFIX + "bootstrap.servers";
    static final String DESTINATION_BOOTSTRAP_DOC = """
            Bootstrap servers of the destination cluster. Producer settings go under \
            'destination.producer.' (e.g. destination.producer.linger.ms, destination.producer.compression.type) and admin \
            client settings under 'destination.admin.'; the destination.ssl.*/sasl.* settings below apply to both. The producer \
            is always idempotent with acks=all: settings that would change that are refused.""";

    public static final String DESTINATION_TOPIC = "destination.topic";
    static final String DESTINATION_TOPIC_DOC = """
            The topic each source topic is copied to, partition p to partition p. Empty means \
            the source topic's name. May contain ${topic} (the source topic's name), which is required when the connector \
            reads several topics. The topic must exist with at least the source's partitions: the sink never creates topics. \
            When a source topic grows while the connector runs, the connector adds the same partitions to its destination \
            topic (see partitions.watch.interval.ms).""";

    public static final String IDENTITY_TOPIC = "destination.identity.topic";
    public static final String IDENTITY_TOPIC_DEFAULT = "__mirror-v3.source-ids";
    static final String IDENTITY_TOPIC_DOC = """
            The topic on the destination cluster that keeps which source topic (by its topic id) each \
            destination topic is a copy of, so that a source topic deleted and created again under the same name is never \
            continued into the old copy, however long the connector was stopped: one record per destination topic, kept for \
            good (cleanup.policy=compact; a topic whose records could expire is refused). The connector creates it when it \
            is missing (1 partition, the cluster's default replication factor), which needs Create on it; the destination \
            clients need Describe, DescribeConfigs, Read and Write on it. Connectors writing to one destination cluster may \
            share it.""";

    public static final String TIMESTAMP_MODE = "timestamp.mode";
    public static final String TIMESTAMP_SOURCE = "source";
    public static final String TIMESTAMP_DESTINATION = "destination";
    static final String TIMESTAMP_MODE_DOC = """
            'source': each record keeps the source record's timestamp (as CreateTime; a destination \
            topic with message.timestamp.type=LogAppendTime stamps its own anyway). 'destination': records are sent without a \
            timestamp and the destination producer stamps them.""";

    static final String KEYS_TYPE_DOC = """
            What keys must be: 'bytes' (anything), 'utf8' (valid UTF-8) or 'json' (one JSON value). \
            A key that does not fit fails the task naming topic, partition and offset: skipping it would leave a hole in a \
            copy whose offsets must equal the source's.""";

    static final String VALUES_TYPE_DOC = "What values must be; as keys.type.";

    public static final String SECURITY_PROTOCOL = "destination.security.protocol";
    static final String SECURITY_PROTOCOL_DOC = """
            security.protocol of the destination producer and admin client (PLAINTEXT, SSL, \
            SASL_PLAINTEXT, SASL_SSL).""";
    public static final String SASL_MECHANISM = "destination.sasl.mechanism";
    static final String SASL_MECHANISM_DOC = """
            sasl.mechanism of the destination clients, e.g. PLAIN, SCRAM-SHA-512; empty: the client \
            default (GSSAPI).""";
    public static final String SASL_JAAS_CONFIG = "destination.sasl.jaas.config";
    static final String SASL_JAAS_CONFIG_DOC = """
            sasl.jaas.config of the destination clients. A secret: give it through a config provider, \
            e.g. ${file:/etc/kafka/destination.properties:sasl.jaas.config}; never logged, [hidden] in validate output.""";
    public static final String SSL_TRUSTSTORE_LOCATION = "destination.ssl.truststore.location";
    static final String SSL_TRUSTSTORE_LOCATION_DOC = "ssl.truststore.location of the destination clients.";
    public static final String SSL_TRUSTSTORE_PASSWORD = "destination.ssl.truststore.password";
    static final String SSL_TRUSTSTORE_PASSWORD_DOC = "ssl.truststore.password of the destination clients; through a config provider.";
    public static final String SSL_KEYSTORE_LOCATION = "destination.ssl.keystore.location";
    static final String SSL_KEYSTORE_LOCATION_DOC = "ssl.keystore.location of the destination clients (mutual TLS).";
    public static final String SSL_KEYSTORE_PASSWORD = "destination.ssl.keystore.password";
    static final String SSL_KEYSTORE_PASSWORD_DOC = "ssl.keystore.password of the destination clients; through a config provider.";
    public static final String SSL_KEY_PASSWORD = "destination.ssl.key.password";
    static final String SSL_KEY_PASSWORD_DOC = "ssl.key.password of the destination clients; through a config provider.";

    static final String SOURCE_ADMIN_BOOTSTRAP_DOC = """
            Bootstrap servers of the source cluster, for the admin client that reads log-start \
            offsets and high watermarks (a lost position, a destination ahead of the source) and seeds the group's committed \
            offsets. Empty means consumer.override.bootstrap.servers. Other admin client settings (security) go under the \
            same 'source.admin.' prefix; feed secrets through config providers.""";

    static final String ADMIN_TIMEOUT_MS_DOC = """
            Timeout of one admin query (high watermarks, log-start offsets, topic descriptions) to \
            either cluster; a timeout is a transient failure.""";

    static final String RETRY_BACKOFF_INITIAL_MS_DOC = """
            First delay after a transient destination or source failure; doubles on each \
            further failure up to retry.backoff.max.ms. The task stays RUNNING meanwhile.""";


    static final String PARTITIONS_WATCH_INTERVAL_MS_DOC = """
            How often the connector reads the partition counts of its topics (one \
            metadata request to the source cluster). When a source topic has grown, the connector adds the same partitions to \
            its destination topic (which needs Alter on it; otherwise the new partition is refused, saying so) and restarts \
            its tasks, which mirror the new partitions from their start: a partition added to a topic is followed within this \
            interval plus a task restart, with no action. Keep it well below the consumer's metadata.max.age.ms (5 minutes by \
            default): a consumer that notices a new partition first fails its task once (NoOffsetForPartitionException), and \
            the next look replaces that task. Not with topics.regex.""";

    static final String GROUPS_SYNC_DOC = """
            Keep the committed offsets of the source's consumer groups (groups.include/groups.exclude) \
            on the mirrored topics in sync on the destination, every groups.interval.ms, so that consumers failing over to the \
            destination resume where they were: offsets are the same on both clusters, so no translation is needed. Each offset \
            is clamped into the destination partition's range (its log start to its high watermark), and a group with active \
            members on the destination is never written. Off by default: it writes the destination's groups, which is right \
            for a standby whose consumers are stopped, and wrong for a copy read by consumers of its own (a migration \
            in progress, another application with the same group id). Needs Describe on the source's groups (and Read to \
            fetch their offsets), and Read on the destination's groups.""";

    /** Producer settings the guarantee depends on: set by the task, refused under destination.producer.*. */
    static final Map<String, String> FIXED_PRODUCER_SETTINGS = Map.of(
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
            ProducerConfig.ACKS_CONFIG, "all");

    private static final String[] SECURITY_PROTOCOLS = {"PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"};

    private static final List<String> SECURITY_KEYS = List.of(SECURITY_PROTOCOL, SASL_MECHANISM, SASL_JAAS_CONFIG,
            SSL_TRUSTSTORE_LOCATION, SSL_TRUSTSTORE_PASSWORD, SSL_KEYSTORE_LOCATION, SSL_KEYSTORE_PASSWORD, SSL_KEY_PASSWORD);

    /** The destination security settings, each passed to the destination clients without its destination. prefix. */
    private static final ConfigFragment SECURITY = ConfigFragment.settings(GROUP_SECURITY,
            Setting.of(SECURITY_PROTOCOL, Type.STRING, "PLAINTEXT", Importance.MEDIUM, Width.SHORT, "Destination security protocol",
                    SECURITY_PROTOCOL_DOC).withValidator(ConfigDef.CaseInsensitiveValidString.in(SECURITY_PROTOCOLS))
                    .withRecommender(ConfigRecommenders.fixed((Object[]) SECURITY_PROTOCOLS)),
            destination(SASL_MECHANISM, Type.STRING, Width.SHORT, "SASL mechanism", SASL_MECHANISM_DOC),
            destination(SASL_JAAS_CONFIG, Type.PASSWORD, Width.LONG, "SASL JAAS config", SASL_JAAS_CONFIG_DOC),
            destination(SSL_TRUSTSTORE_LOCATION, Type.STRING, Width.LONG, "truststore", SSL_TRUSTSTORE_LOCATION_DOC),
            destination(SSL_TRUSTSTORE_PASSWORD, Type.PASSWORD, Width.MEDIUM, "truststore password", SSL_TRUSTSTORE_PASSWORD_DOC),
            destination(SSL_KEYSTORE_LOCATION, Type.STRING, Width.LONG, "keystore", SSL_KEYSTORE_LOCATION_DOC),
            destination(SSL_KEYSTORE_PASSWORD, Type.PASSWORD, Width.MEDIUM, "keystore password", SSL_KEYSTORE_PASSWORD_DOC),
            destination(SSL_KEY_PASSWORD, Type.PASSWORD, Width.MEDIUM, "key password", SSL_KEY_PASSWORD_DOC));

    static final ConfigFragments FRAGMENTS = ConfigFragments.of(null,
            ConfigFragment.settings(ConfigGroups.DESTINATION,
                    Setting.of(DESTINATION_BOOTSTRAP, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, Importance.HIGH, Width.LONG,
                            "Destination bootstrap servers", DESTINATION_BOOTSTRAP_DOC).withValidator(new ConfigDef.NonEmptyString()),
                    Setting.of(DESTINATION_TOPIC, Type.STRING, "", Importance.HIGH, Width.MEDIUM, "Destination topic",
                            DESTINATION_TOPIC_DOC),
                    Setting.of(TIMESTAMP_MODE, Type.STRING, TIMESTAMP_SOURCE, Importance.MEDIUM, Width.SHORT, "Timestamp mode",
                            TIMESTAMP_MODE_DOC)
                            .withValidator(ConfigDef.CaseInsensitiveValidString.in(TIMESTAMP_SOURCE, TIMESTAMP_DESTINATION))
                            .withRecommender(ConfigRecommenders.fixed(TIMESTAMP_SOURCE, TIMESTAMP_DESTINATION)),
                    Setting.of(IDENTITY_TOPIC, Type.STRING, IDENTITY_TOPIC_DEFAULT, Importance.LOW, Width.MEDIUM, "Identity topic",
                            IDENTITY_TOPIC_DOC).withValidator(new ConfigDef.NonEmptyString())),
            StoreConfigFragment.valueTypes(ConfigGroups.DESTINATION,
                    Map.of(StoreConfigFragment.KEYS_TYPE, KEYS_TYPE_DOC, StoreConfigFragment.VALUES_TYPE, VALUES_TYPE_DOC)),
            SECURITY,
            ConnectorConfigFragment.sourceAdmin(ConfigGroups.SOURCE_CLUSTER, Map.of(ConnectorConfigFragment.SOURCE_ADMIN_BOOTSTRAP,
                    SOURCE_ADMIN_BOOTSTRAP_DOC, ConnectorConfigFragment.ADMIN_TIMEOUT_MS, ADMIN_TIMEOUT_MS_DOC)),
            ConnectorConfigFragment.retryBackoff(ConfigGroups.OPERATIONS,
                    Map.of(ConnectorConfigFragment.RETRY_BACKOFF_INITIAL_MS, RETRY_BACKOFF_INITIAL_MS_DOC)),
            HeartbeatConfigFragment.FRAGMENT,
            ConnectorConfigFragment.partitionsWatch(ConfigGroups.OPERATIONS,
                    Map.of(ConnectorConfigFragment.PARTITIONS_WATCH_INTERVAL_MS, PARTITIONS_WATCH_INTERVAL_MS_DOC)),
            GroupSyncConfigFragment.withSync(GROUP_GROUPS, false, GROUPS_SYNC_DOC, Map.of()),
            new SinkConsumerRules("Kafka sink", "copy"));

    public static final ConfigDef CONFIG_DEF = FRAGMENTS.configDef();

    public KafkaSinkConfig(Map<?, ?> props) {
        super(FRAGMENTS, props);
    }

    /** A destination client setting: empty by default; displayed as "Destination " and what it is. */
    private static Setting destination(String key, Type type, Width width, String what, String doc) {
        return Setting.of(key, type, "", Importance.MEDIUM, width, "Destination " + what, doc);
    }

    /** The destination topic of a source topic: destination.topic (default the source's name) with ${topic} resolved. */
    public String destinationTopic(String sourceTopic) {
        String t = getString(DESTINATION_TOPIC);
        return t.isBlank() ? sourceTopic : t.replace(TOPIC_PLACEHOLDER, sourceTopic);
    }

    public boolean sourceTimestamps() {
        return TIMESTAMP_SOURCE.equalsIgnoreCase(getString(TIMESTAMP_MODE));
    }

    public ValueType keysType() {
        return StoreSettings.of(originalsStrings()).keysType();
    }

    public ValueType valuesType() {
        return StoreSettings.of(originalsStrings()).valuesType();
    }

    public String destinationBootstrap() {
        return getString(DESTINATION_BOOTSTRAP);
    }

    /** Bootstrap and security settings shared by the destination producer and admin client. */
    private Map<String, Object> destinationCommon() {
        Map<String, Object> c = new HashMap<>();
        c.put("bootstrap.servers", destinationBootstrap());
        for (String key : SECURITY_KEYS) {
            Object v = get(key);
            String s = v instanceof Password p ? p.value() : v == null ? "" : v.toString();
            if (!s.isBlank()) {
                c.put(key.substring(DESTINATION_PREFIX.length()), s);
            }
        }
        return c;
    }

    /**
     * The destination producer: idempotent, acks=all, up to 5 requests in flight per broker (the most an idempotent
     * producer keeps in order), large batches; destination.producer.* on top, except what the guarantee needs.
     */
    public Map<String, Object> producerConfig(String clientId) {
        Map<String, Object> c = destinationCommon();
        c.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        c.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        c.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        c.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 64L << 20);
        c.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
        c.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        c.putAll(originalsWithPrefix(DESTINATION_PRODUCER_PREFIX));
        c.putAll(FIXED_PRODUCER_SETTINGS);
        c.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        c.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        c.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        return c;
    }

    /** The destination topic that keeps which source topic each destination topic copies. */
    public String identityTopic() {
        return getString(IDENTITY_TOPIC).trim();
    }

    /** A consumer of the destination cluster without a group (it reads the identity topic whole): bootstrap and security. */
    public Map<String, Object> destinationConsumerConfig(String clientId) {
        Map<String, Object> c = destinationCommon();
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return c;
    }

    public Map<String, Object> destinationAdminConfig(String clientId) {
        Map<String, Object> c = destinationCommon();
        c.put("client.id", clientId);
        c.putAll(originalsWithPrefix(DESTINATION_ADMIN_PREFIX));
        return c;
    }

    /** groups.sync, unless groups.interval.ms is 0 (off). */
    public boolean groupsSync() {
        return GroupSyncConfigFragment.syncs(this);
    }

}
