package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.Compression;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ValueType;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.store.StoreFactory;
import dev.mirrorv3.chain.store.s3.S3Settings;
import dev.mirrorv3.kafka.ConfigDocs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.types.Password;

/** The BlobSinkConnector's settings: key/doc/default triplets, groups, validators and typed accessors. */
public final class BlobSinkConfig extends AbstractConfig {

    public static final String TOPIC_PLACEHOLDER = "${topic}";

    private static final String GROUP_DESTINATION = "Destination";
    private static final String GROUP_S3 = "S3";
    private static final String GROUP_FORMAT = "Format";
    private static final String GROUP_FLUSH = "Flush";
    private static final String GROUP_SOURCE = "Source cluster";
    private static final String GROUP_OPERATIONS = "Operations";

    public static final String DESTINATION_TYPE = "destination.type";
    static final String DESTINATION_TYPE_DOC = "Where the chains live. 'filesystem': a local or mounted directory (filesystem.root);"
            + " 's3': an S3 bucket or an S3-compatible store (s3.* settings).";
    public static final String DESTINATION_TYPE_FILESYSTEM = "filesystem";
    public static final String DESTINATION_TYPE_S3 = "s3";

    public static final String DESTINATION_NAME = "destination.name";
    static final String DESTINATION_NAME_DOC = "The chain directory's name under the root: <root>/<destination.name>/<partition>/."
            + " Empty means the connector's name. May contain ${topic}, which is required when the connector reads several topics."
            + " mirror-v3's early versions used the topic name; set it to that to continue such a backup.";

    public static final String FILESYSTEM_ROOT = "filesystem.root";
    static final String FILESYSTEM_ROOT_DOC = "Absolute path of the directory that holds the chains (destination.type=filesystem)."
            + " Created if missing. Objects are committed with fsync and link(2), so any POSIX filesystem with hard links works.";

    public static final String S3_ENDPOINT = "s3.endpoint";
    static final String S3_ENDPOINT_DOC = "URL of an S3-compatible store (MinIO, Ceph, VersityGW, S3Proxy), e.g. https://minio:9000;"
            + " empty for AWS S3 (the region's endpoint).";

    public static final String S3_REGION = "s3.region";
    static final String S3_REGION_DOC = "Region of the bucket, e.g. eu-central-1 (required with destination.type=s3; S3-compatible stores"
            + " usually accept us-east-1). Never read from AWS_REGION or a profile.";

    public static final String S3_BUCKET = "s3.bucket";
    static final String S3_BUCKET_DOC = "The bucket that holds the chains (required with destination.type=s3). It must exist.";

    public static final String S3_PREFIX = "s3.prefix";
    static final String S3_PREFIX_DOC = "Key prefix of the chains: objects are <prefix>/<destination.name>/<partition>/<object>. Split on"
            + " '/' with empty segments dropped, as mirror-v3 does ('archive/' = 'archive'). Empty: chains at the bucket's top.";

    public static final String S3_PATH_STYLE = "s3.path.style.access";
    static final String S3_PATH_STYLE_DOC = "Address the bucket in the path (http://endpoint/bucket/key) instead of the host name;"
            + " most S3-compatible stores need true.";

    public static final String S3_WRITE_ACCESS_KEY_ID = "s3.write.access.key.id";
    static final String S3_WRITE_ACCESS_KEY_ID_DOC = "Access key id of the write identity, which signs PutObject only (the bucket"
            + " policy needs to allow it s3:PutObject on the prefix, nothing else). Feed it through a config provider, e.g."
            + " ${env:S3_WRITE_ACCESS_KEY_ID} or ${file:/etc/kafka/s3.properties:write.access.key.id}. Credentials are never"
            + " discovered from AWS_* variables, profiles or instance metadata.";

    public static final String S3_WRITE_SECRET_ACCESS_KEY = "s3.write.secret.access.key";
    static final String S3_WRITE_SECRET_ACCESS_KEY_DOC = "Secret access key of the write identity. Never logged, [hidden] in"
            + " validate output; the stored connector config (GET /connectors/<name>/config) holds what it was given, so give"
            + " it a config provider reference, as s3.write.access.key.id.";

    public static final String S3_READ_ACCESS_KEY_ID = "s3.read.access.key.id";
    static final String S3_READ_ACCESS_KEY_ID_DOC = "Access key id of the read identity, which signs ListObjectsV2, GetObject and"
            + " HeadObject (the bucket policy needs to allow it s3:ListBucket on the prefix and s3:GetObject); through a config"
            + " provider, as s3.write.access.key.id.";

    public static final String S3_READ_SECRET_ACCESS_KEY = "s3.read.secret.access.key";
    static final String S3_READ_SECRET_ACCESS_KEY_DOC = "Secret access key of the read identity; through a config provider.";

    public static final String ENCRYPTION = ObjectEncryption.ENCRYPTION;
    public static final String ENCRYPTION_NONE = ObjectEncryption.NONE;
    public static final String ENCRYPTION_PARQUET = ObjectEncryption.PARQUET;
    static final String ENCRYPTION_DOC = "Encryption of the objects' content; required with destination.type=s3, where it must be"
            + " written out. 'none': plain Parquet or NDJSON objects (use the bucket's server-side encryption if needed)."
            + " 'parquet': Parquet modular encryption (AES_GCM_V1, encrypted footer, every column) with the key"
            + " encryption.key.id from encryption.keys.dir; objects are named <from>-<to>.k-<key id>.parquet and are readable"
            + " only with the key. Needs format=parquet. Empty means none on a filesystem.";

    public static final String ENCRYPTION_KEYS_DIR = ObjectEncryption.KEYS_DIR;
    static final String ENCRYPTION_KEYS_DIR_DOC = "Absolute path of the directory of keys, normally a mounted Kubernetes Secret: one"
            + " file per key, named by its key id ([a-z0-9][a-z0-9-]{0,31}), holding the standard base64 of 32 random bytes"
            + " (openssl rand -base64 32); entries starting with '.' are skipped. Every object is read with the key its name"
            + " carries, so keep the files of older keys as long as objects encrypted with them exist. Also needed with"
            + " encryption=none while the chain holds encrypted objects.";

    public static final String ENCRYPTION_KEY_ID = ObjectEncryption.KEY_ID;
    static final String ENCRYPTION_KEY_ID_DOC = "The key id new objects are encrypted with (encryption=parquet); its file must exist"
            + " in encryption.keys.dir. Rotation: add the new key's file, change this setting (the connector restarts its"
            + " task); older objects stay readable with their own keys.";

    public static final String FORMAT = "format";
    static final String FORMAT_DOC = "Object format: 'parquet' (columnar, compressed, readable by DuckDB, Spark, pyarrow) or"
            + " 'ndjson' (one JSON object per line; binary as base64).";

    public static final String COMPRESSION = "compression";
    static final String COMPRESSION_DOC = "Parquet compression codec: 'zstd' (level 1, as mirror-v3), 'snappy' or 'uncompressed'."
            + " Ignored for ndjson.";

    public static final String KEYS_TYPE = "keys.type";
    static final String KEYS_TYPE_DOC = "How keys are stored: 'bytes' (exact bytes, any content; Parquet BINARY), 'utf8' (must be"
            + " valid UTF-8; Parquet STRING) or 'json' (must parse as JSON; JSON-annotated STRING). A key that does not fit"
            + " fails the task, naming topic, partition and offset.";

    public static final String VALUES_TYPE = "values.type";
    static final String VALUES_TYPE_DOC = "How values are stored; as keys.type.";

    public static final String FLUSH_MAX_RECORDS = "flush.max.records";
    static final String FLUSH_MAX_RECORDS_DOC = "Write a partition's buffer as one object when it holds this many records.";

    public static final String FLUSH_MAX_BYTES = "flush.max.bytes";
    static final String FLUSH_MAX_BYTES_DOC = "Write a partition's buffer as one object when its payload (keys, values, header keys"
            + " and values) reaches this many bytes.";

    public static final String FLUSH_MAX_TIME_MS = "flush.max.time.ms";
    static final String FLUSH_MAX_TIME_MS_DOC = "Write a partition's buffer as one object when its oldest record has waited this long,"
            + " also when no new record arrives (a timer). Bounds how much a backup trails its source.";

    public static final String BUFFER_MAX_BYTES = "buffer.max.bytes";
    static final String BUFFER_MAX_BYTES_DOC = "Task-wide cap on buffered payload bytes over all partitions. When a record would exceed"
            + " it, the largest buffer is written early, so heap stays bounded however many partitions are busy.";

    public static final String PARTITIONS = "partitions";
    static final String PARTITIONS_DOC = "Back up only these partitions (comma-separated); empty means all. The others are paused.";

    public static final String SOURCE_ADMIN_PREFIX = "source.admin.";
    public static final String SOURCE_ADMIN_BOOTSTRAP = SOURCE_ADMIN_PREFIX + "bootstrap.servers";
    static final String SOURCE_ADMIN_BOOTSTRAP_DOC = "Bootstrap servers of the source cluster, for the admin client that reads log-start"
            + " offsets and high watermarks. Empty means consumer.override.bootstrap.servers. Other admin client settings"
            + " (security) go under the same 'source.admin.' prefix, e.g. source.admin.security.protocol; feed secrets"
            + " through config providers (${file:...}, ${env:...}).";

    public static final String RETRY_BACKOFF_INITIAL_MS = "retry.backoff.initial.ms";
    static final String RETRY_BACKOFF_INITIAL_MS_DOC = "First delay after a transient failure (store or source cluster unreachable);"
            + " doubles on each further failure up to retry.backoff.max.ms. The buffer is kept meanwhile.";

    public static final String RETRY_BACKOFF_MAX_MS = "retry.backoff.max.ms";
    static final String RETRY_BACKOFF_MAX_MS_DOC = "Largest delay between retries of a transient failure.";

    public static final String CHAIN_CHECK_INTERVAL_MS = "chain.check.interval.ms";
    static final String CHAIN_CHECK_INTERVAL_MS_DOC = "How often the whole chain of each partition is listed and checked against what"
            + " this task wrote (catches a second writer or a manual change between flushes). Every flush also checks the"
            + " chain's tail, at O(1) cost.";

    public static final String HEARTBEAT_INTERVAL_MS = "heartbeat.interval.ms";
    static final String HEARTBEAT_INTERVAL_MS_DOC = "Interval of the per-partition heartbeat log line (next offset, records since the"
            + " last heartbeat); 0 turns it off.";

    public static final String SOURCE_LAG_INTERVAL_MS = "source.lag.interval.ms";
    static final String SOURCE_LAG_INTERVAL_MS_DOC = "How often the source lag metric (the source's high watermark minus the next"
            + " durable offset, mirror_v3_source_lag_offsets) is refreshed, with one admin query for all the task's partitions"
            + " on a thread of its own; 0 turns the metric off.";

    public static final String ADMIN_TIMEOUT_MS = "source.admin.timeout.ms";
    static final String ADMIN_TIMEOUT_MS_DOC = "Timeout of one admin query to the source cluster; a timeout is a transient failure.";

    public static final ConfigDef CONFIG_DEF = configDef();

    public BlobSinkConfig(Map<?, ?> props) {
        super(CONFIG_DEF, props);
    }

    private static ConfigDef configDef() {
        ConfigDef def = new ConfigDef();
        int o = 0;
        def.define(DESTINATION_TYPE, Type.STRING, DESTINATION_TYPE_FILESYSTEM,
                ConfigDef.ValidString.in(DESTINATION_TYPE_FILESYSTEM, DESTINATION_TYPE_S3), Importance.HIGH, DESTINATION_TYPE_DOC,
                GROUP_DESTINATION, ++o, Width.SHORT, "Destination type", List.of(),
                Recommenders.fixed(DESTINATION_TYPE_FILESYSTEM, DESTINATION_TYPE_S3));
        def.define(FILESYSTEM_ROOT, Type.STRING, "", Importance.HIGH, FILESYSTEM_ROOT_DOC,
                GROUP_DESTINATION, ++o, Width.LONG, "Filesystem root", List.of(DESTINATION_TYPE), Recommenders.visibleForFilesystem());
        def.define(DESTINATION_NAME, Type.STRING, "", Importance.MEDIUM, DESTINATION_NAME_DOC,
                GROUP_DESTINATION, ++o, Width.MEDIUM, "Destination name");
        def.define(ENCRYPTION, Type.STRING, "", Validators.oneOfOrEmpty(ENCRYPTION_NONE, ENCRYPTION_PARQUET), Importance.HIGH,
                ENCRYPTION_DOC, GROUP_DESTINATION, ++o, Width.SHORT, "Encryption", List.of(ENCRYPTION_KEYS_DIR, ENCRYPTION_KEY_ID),
                Recommenders.fixed(ENCRYPTION_NONE, ENCRYPTION_PARQUET));
        def.define(ENCRYPTION_KEYS_DIR, Type.STRING, "", Importance.HIGH, ENCRYPTION_KEYS_DIR_DOC,
                GROUP_DESTINATION, ++o, Width.LONG, "Encryption keys dir");
        def.define(ENCRYPTION_KEY_ID, Type.STRING, "", Importance.HIGH, ENCRYPTION_KEY_ID_DOC,
                GROUP_DESTINATION, ++o, Width.SHORT, "Encryption key id");

        o = 0;
        def.define(S3_ENDPOINT, Type.STRING, "", Importance.MEDIUM, S3_ENDPOINT_DOC,
                GROUP_S3, ++o, Width.LONG, "S3 endpoint", List.of(DESTINATION_TYPE), Recommenders.visibleForS3());
        def.define(S3_REGION, Type.STRING, "", Importance.HIGH, S3_REGION_DOC,
                GROUP_S3, ++o, Width.SHORT, "S3 region", List.of(DESTINATION_TYPE), Recommenders.visibleForS3());
        def.define(S3_BUCKET, Type.STRING, "", Importance.HIGH, S3_BUCKET_DOC,
                GROUP_S3, ++o, Width.MEDIUM, "S3 bucket", List.of(DESTINATION_TYPE), Recommenders.visibleForS3());
        def.define(S3_PREFIX, Type.STRING, "", Importance.MEDIUM, S3_PREFIX_DOC,
                GROUP_S3, ++o, Width.MEDIUM, "S3 prefix", List.of(DESTINATION_TYPE), Recommenders.visibleForS3());
        def.define(S3_PATH_STYLE, Type.BOOLEAN, false, Importance.MEDIUM, S3_PATH_STYLE_DOC,
                GROUP_S3, ++o, Width.SHORT, "S3 path-style access", List.of(DESTINATION_TYPE), Recommenders.visibleForS3());
        def.define(S3_WRITE_ACCESS_KEY_ID, Type.PASSWORD, "", Importance.HIGH, S3_WRITE_ACCESS_KEY_ID_DOC,
                GROUP_S3, ++o, Width.MEDIUM, "S3 write identity: access key id", List.of(DESTINATION_TYPE), Recommenders.visibleForS3());
        def.define(S3_WRITE_SECRET_ACCESS_KEY, Type.PASSWORD, "", Importance.HIGH, S3_WRITE_SECRET_ACCESS_KEY_DOC,
                GROUP_S3, ++o, Width.MEDIUM, "S3 write identity: secret", List.of(DESTINATION_TYPE), Recommenders.visibleForS3());
        def.define(S3_READ_ACCESS_KEY_ID, Type.PASSWORD, "", Importance.HIGH, S3_READ_ACCESS_KEY_ID_DOC,
                GROUP_S3, ++o, Width.MEDIUM, "S3 read identity: access key id", List.of(DESTINATION_TYPE), Recommenders.visibleForS3());
        def.define(S3_READ_SECRET_ACCESS_KEY, Type.PASSWORD, "", Importance.HIGH, S3_READ_SECRET_ACCESS_KEY_DOC,
                GROUP_S3, ++o, Width.MEDIUM, "S3 read identity: secret", List.of(DESTINATION_TYPE), Recommenders.visibleForS3());

        o = 0;
        def.define(FORMAT, Type.STRING, "parquet", Validators.oneOf("parquet", "ndjson"), Importance.HIGH, FORMAT_DOC,
                GROUP_FORMAT, ++o, Width.SHORT, "Format", List.of(), Recommenders.fixed("parquet", "ndjson"));
        def.define(COMPRESSION, Type.STRING, "zstd", Validators.oneOf("zstd", "snappy", "uncompressed"), Importance.MEDIUM,
                COMPRESSION_DOC, GROUP_FORMAT, ++o, Width.SHORT, "Compression", List.of(FORMAT), Recommenders.compression());
        def.define(KEYS_TYPE, Type.STRING, "bytes", Validators.oneOf("bytes", "utf8", "json"), Importance.MEDIUM, KEYS_TYPE_DOC,
                GROUP_FORMAT, ++o, Width.SHORT, "Keys type", List.of(), Recommenders.fixed("bytes", "utf8", "json"));
        def.define(VALUES_TYPE, Type.STRING, "bytes", Validators.oneOf("bytes", "utf8", "json"), Importance.MEDIUM, VALUES_TYPE_DOC,
                GROUP_FORMAT, ++o, Width.SHORT, "Values type", List.of(), Recommenders.fixed("bytes", "utf8", "json"));

        o = 0;
        def.define(FLUSH_MAX_RECORDS, Type.LONG, 100_000L, ConfigDef.Range.atLeast(1), Importance.HIGH, FLUSH_MAX_RECORDS_DOC,
                GROUP_FLUSH, ++o, Width.SHORT, "Flush max records");
        def.define(FLUSH_MAX_BYTES, Type.LONG, 16L * 1024 * 1024, ConfigDef.Range.atLeast(1), Importance.HIGH, FLUSH_MAX_BYTES_DOC,
                GROUP_FLUSH, ++o, Width.SHORT, "Flush max bytes");
        def.define(FLUSH_MAX_TIME_MS, Type.LONG, 60_000L, ConfigDef.Range.atLeast(10), Importance.HIGH, FLUSH_MAX_TIME_MS_DOC,
                GROUP_FLUSH, ++o, Width.SHORT, "Flush max time (ms)");
        def.define(BUFFER_MAX_BYTES, Type.LONG, 128L * 1024 * 1024, ConfigDef.Range.atLeast(1), Importance.MEDIUM,
                BUFFER_MAX_BYTES_DOC, GROUP_FLUSH, ++o, Width.SHORT, "Task buffer cap (bytes)");

        o = 0;
        def.define(SOURCE_ADMIN_BOOTSTRAP, Type.STRING, "", Importance.HIGH, SOURCE_ADMIN_BOOTSTRAP_DOC,
                GROUP_SOURCE, ++o, Width.LONG, "Source bootstrap servers");
        def.define(ADMIN_TIMEOUT_MS, Type.LONG, 15_000L, ConfigDef.Range.atLeast(100), Importance.LOW, ADMIN_TIMEOUT_MS_DOC,
                GROUP_SOURCE, ++o, Width.SHORT, "Admin timeout (ms)");
        def.define(PARTITIONS, Type.LIST, "", Validators.partitionList(), Importance.MEDIUM, PARTITIONS_DOC,
                GROUP_SOURCE, ++o, Width.MEDIUM, "Partitions");

        o = 0;
        def.define(RETRY_BACKOFF_INITIAL_MS, Type.LONG, 1_000L, ConfigDef.Range.atLeast(1), Importance.LOW,
                RETRY_BACKOFF_INITIAL_MS_DOC, GROUP_OPERATIONS, ++o, Width.SHORT, "Retry backoff initial (ms)");
        def.define(RETRY_BACKOFF_MAX_MS, Type.LONG, 60_000L, ConfigDef.Range.atLeast(1), Importance.LOW,
                RETRY_BACKOFF_MAX_MS_DOC, GROUP_OPERATIONS, ++o, Width.SHORT, "Retry backoff max (ms)");
        def.define(CHAIN_CHECK_INTERVAL_MS, Type.LONG, 60_000L, ConfigDef.Range.atLeast(100), Importance.LOW,
                CHAIN_CHECK_INTERVAL_MS_DOC, GROUP_OPERATIONS, ++o, Width.SHORT, "Chain check interval (ms)");
        def.define(HEARTBEAT_INTERVAL_MS, Type.LONG, 30_000L, ConfigDef.Range.atLeast(0), Importance.LOW,
                HEARTBEAT_INTERVAL_MS_DOC, GROUP_OPERATIONS, ++o, Width.SHORT, "Heartbeat interval (ms)");
        def.define(SOURCE_LAG_INTERVAL_MS, Type.LONG, 30_000L, ConfigDef.Range.atLeast(0), Importance.LOW,
                SOURCE_LAG_INTERVAL_MS_DOC, GROUP_OPERATIONS, ++o, Width.SHORT, "Source lag interval (ms)");
        return def;
    }

    public EnvelopeSettings envelope() {
        return new EnvelopeSettings(EnvelopeFormat.fromConfig(getString(FORMAT)), Compression.fromConfig(getString(COMPRESSION)),
                ValueType.fromConfig(getString(KEYS_TYPE)), ValueType.fromConfig(getString(VALUES_TYPE)));
    }

    /**
     * Keys and the key id of new objects, read from the keys dir now.
     *
     * @throws dev.mirrorv3.chain.crypto.KeysDirException naming the setting or the key file that is wrong
     */
    public ObjectEncryption encryption() {
        return ObjectEncryption.fromSettings(originalsStrings());
    }

    public FlushPolicy flushPolicy() {
        return new FlushPolicy(getLong(FLUSH_MAX_RECORDS), getLong(FLUSH_MAX_BYTES), getLong(FLUSH_MAX_TIME_MS));
    }

    public long bufferMaxBytes() {
        return getLong(BUFFER_MAX_BYTES);
    }

    public String destinationType() {
        return getString(DESTINATION_TYPE);
    }

    /** The S3 destination's settings (destination.type=s3); identities from the PASSWORD settings. */
    /** The S3 destination, read by the one shared factory (the restore CLI reads the same settings). */
    public S3Settings s3Settings() {
        return StoreFactory.s3Settings(originalsStrings());
    }

    public Path filesystemRoot() {
        return Path.of(getString(FILESYSTEM_ROOT));
    }

    /** The chain directory name for a topic: destination.name (default the connector name) with ${topic} resolved. */
    public String destinationName(String connectorName, String topic) {
        String name = getString(DESTINATION_NAME);
        if (name.isBlank()) {
            name = connectorName;
        }
        return name.replace(TOPIC_PLACEHOLDER, topic);
    }

    public List<Integer> partitions() {
        return getList(PARTITIONS).stream().map(String::trim).map(Integer::valueOf).toList();
    }

    /** Admin client settings: everything under source.admin., bootstrap defaulting to the consumer override. */
    public Map<String, Object> sourceAdminConfig() {
        Map<String, Object> admin = new HashMap<>(originalsWithPrefix(SOURCE_ADMIN_PREFIX));
        admin.remove("timeout.ms");
        String bootstrap = getString(SOURCE_ADMIN_BOOTSTRAP);
        if (bootstrap.isBlank()) {
            Object override = originals().get("consumer.override.bootstrap.servers");
            bootstrap = override == null ? "" : override.toString();
        }
        admin.put("bootstrap.servers", bootstrap);
        admin.putIfAbsent("client.id", "mirror-v3-blob-sink-admin");
        return admin;
    }

    public Duration adminTimeout() {
        return Duration.ofMillis(getLong(ADMIN_TIMEOUT_MS));
    }

    public long retryBackoffInitialMs() {
        return getLong(RETRY_BACKOFF_INITIAL_MS);
    }

    public long retryBackoffMaxMs() {
        return getLong(RETRY_BACKOFF_MAX_MS);
    }

    public long chainCheckIntervalMs() {
        return getLong(CHAIN_CHECK_INTERVAL_MS);
    }

    public long heartbeatIntervalMs() {
        return getLong(HEARTBEAT_INTERVAL_MS);
    }

    public long sourceLagIntervalMs() {
        return getLong(SOURCE_LAG_INTERVAL_MS);
    }

    /** Prints the configuration reference as Markdown (used to generate the README section). */
    public static void main(String[] args) {
        System.out.print(ConfigDocs.markdown(CONFIG_DEF));
    }
}
