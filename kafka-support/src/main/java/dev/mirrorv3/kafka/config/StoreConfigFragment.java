package dev.mirrorv3.kafka.config;

import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.store.StoreFactory;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The settings that describe where a backup lives and how its objects are written (destination, S3, format): one
 * definition shared by the blob sink that writes a backup and the chain source that reads it back, so a sink's GitOps
 * JSON can be reused as it is. Keys are {@link StoreFactory}'s, which turns them into a store.
 */
public final class StoreConfigFragment {
    public static final String DESTINATION_TYPE = StoreFactory.DESTINATION_TYPE;
    public static final String DESTINATION_TYPE_FILESYSTEM = "filesystem";
    public static final String DESTINATION_TYPE_S3 = "s3";
    public static final String DESTINATION_NAME = "destination.name";
    public static final String FILESYSTEM_ROOT = StoreFactory.FILESYSTEM_ROOT;
    public static final String ENCRYPTION = ObjectEncryption.ENCRYPTION;
    public static final String ENCRYPTION_NONE = ObjectEncryption.NONE;
    public static final String ENCRYPTION_PARQUET = ObjectEncryption.PARQUET;
    public static final String ENCRYPTION_KEYS_DIR = ObjectEncryption.KEYS_DIR;
    public static final String ENCRYPTION_KEY_ID = ObjectEncryption.KEY_ID;
    public static final String S3_ENDPOINT = StoreFactory.S3_ENDPOINT;
    public static final String S3_REGION = StoreFactory.S3_REGION;
    public static final String S3_BUCKET = StoreFactory.S3_BUCKET;
    public static final String S3_PREFIX = StoreFactory.S3_PREFIX;
    public static final String S3_PATH_STYLE = StoreFactory.S3_PATH_STYLE;
    public static final String S3_WRITE_ACCESS_KEY_ID = StoreFactory.S3_WRITE_ACCESS_KEY_ID;
    public static final String S3_WRITE_SECRET_ACCESS_KEY = StoreFactory.S3_WRITE_SECRET_ACCESS_KEY;
    public static final String S3_READ_ACCESS_KEY_ID = StoreFactory.S3_READ_ACCESS_KEY_ID;
    public static final String S3_READ_SECRET_ACCESS_KEY = StoreFactory.S3_READ_SECRET_ACCESS_KEY;
    public static final String FORMAT = StoreFactory.FORMAT;
    public static final String COMPRESSION = StoreFactory.COMPRESSION;
    public static final String KEYS_TYPE = StoreFactory.KEYS_TYPE;
    public static final String VALUES_TYPE = StoreFactory.VALUES_TYPE;

    public static final String GROUP_S3 = "S3";
    public static final String GROUP_FORMAT = "Format";

    static final String DESTINATION_TYPE_DOC = "Where the chains live. 'filesystem': a local or mounted directory (filesystem.root);"
            + " 's3': an S3 bucket or an S3-compatible store (s3.* settings).";
    static final String DESTINATION_NAME_DOC = "The chain directory's name under the root: <root>/<destination.name>/<partition>/."
            + " Empty means the connector's name. May contain ${topic}, which is required when the connector reads several topics."
            + " mirror-v3's early versions used the topic name; set it to that to continue such a backup.";
    static final String FILESYSTEM_ROOT_DOC = "Absolute path of the directory that holds the chains (destination.type=filesystem)."
            + " Created if missing. Objects are committed with fsync and link(2), so any POSIX filesystem with hard links works.";
    static final String S3_ENDPOINT_DOC = "URL of an S3-compatible store (MinIO, Ceph, VersityGW, S3Proxy), e.g. https://minio:9000;"
            + " empty for AWS S3 (the region's endpoint).";
    static final String S3_REGION_DOC = "Region of the bucket, e.g. eu-central-1 (required with destination.type=s3; S3-compatible stores"
            + " usually accept us-east-1). Never read from AWS_REGION or a profile.";
    static final String S3_BUCKET_DOC = "The bucket that holds the chains (required with destination.type=s3). It must exist.";
    static final String S3_PREFIX_DOC = "Key prefix of the chains: objects are <prefix>/<destination.name>/<partition>/<object>. Split on"
            + " '/' with empty segments dropped, as mirror-v3 does ('archive/' = 'archive'). Empty: chains at the bucket's top.";
    static final String S3_PATH_STYLE_DOC = "Address the bucket in the path (http://endpoint/bucket/key) instead of the host name;"
            + " most S3-compatible stores need true.";
    static final String S3_WRITE_ACCESS_KEY_ID_DOC = "Access key id of the write identity, which signs PutObject only (the bucket"
            + " policy needs to allow it s3:PutObject on the prefix, nothing else). Feed it through a config provider, e.g."
            + " ${env:S3_WRITE_ACCESS_KEY_ID} or ${file:/etc/kafka/s3.properties:write.access.key.id}. Credentials are never"
            + " discovered from AWS_* variables, profiles or instance metadata.";
    static final String S3_WRITE_SECRET_ACCESS_KEY_DOC = "Secret access key of the write identity. Never logged, [hidden] in"
            + " validate output; the stored connector config (GET /connectors/<name>/config) holds what it was given, so give"
            + " it a config provider reference, as s3.write.access.key.id.";
    static final String S3_READ_ACCESS_KEY_ID_DOC = "Access key id of the read identity, which signs ListObjectsV2, GetObject and"
            + " HeadObject (the bucket policy needs to allow it s3:ListBucket on the prefix and s3:GetObject); through a config"
            + " provider, as s3.write.access.key.id.";
    static final String S3_READ_SECRET_ACCESS_KEY_DOC = "Secret access key of the read identity; through a config provider.";
    static final String ENCRYPTION_DOC = "Encryption of the objects' content; required with destination.type=s3, where it must be"
            + " written out. 'none': plain Parquet or NDJSON objects (use the bucket's server-side encryption if needed)."
            + " 'parquet': Parquet modular encryption (AES_GCM_V1, encrypted footer, every column) with the key"
            + " encryption.key.id from encryption.keys.dir; objects are named <from>-<to>.k-<key id>.parquet and are readable"
            + " only with the key. Needs format=parquet. Empty means none on a filesystem.";
    static final String ENCRYPTION_KEYS_DIR_DOC = "Absolute path of the directory of keys, normally a mounted Kubernetes Secret: one"
            + " file per key, named by its key id ([a-z0-9][a-z0-9-]{0,31}), holding the standard base64 of 32 random bytes"
            + " (openssl rand -base64 32); entries starting with '.' are skipped. Every object is read with the key its name"
            + " carries, so keep the files of older keys as long as objects encrypted with them exist. Also needed with"
            + " encryption=none while the chain holds encrypted objects.";
    static final String ENCRYPTION_KEY_ID_DOC = "The key id new objects are encrypted with (encryption=parquet); its file must exist"
            + " in encryption.keys.dir. Rotation: add the new key's file, change this setting (the connector restarts its"
            + " task); older objects stay readable with their own keys.";
    static final String FORMAT_DOC = "Object format: 'parquet' (columnar, compressed, readable by DuckDB, Spark, pyarrow) or"
            + " 'ndjson' (one JSON object per line; binary as base64).";
    static final String COMPRESSION_DOC = "Parquet compression codec: 'zstd' (level 1, as mirror-v3), 'snappy' or 'uncompressed'."
            + " Ignored for ndjson.";
    static final String KEYS_TYPE_DOC = "How keys are stored: 'bytes' (exact bytes, any content; Parquet BINARY), 'utf8' (must be"
            + " valid UTF-8; Parquet STRING) or 'json' (must parse as JSON; JSON-annotated STRING). A key that does not fit"
            + " fails the task, naming topic, partition and offset.";
    static final String VALUES_TYPE_DOC = "How values are stored; as keys.type.";

    /** What a connector does with the store: the blob sink writes a backup, the chain source reads one. */
    public enum Access {
        WRITE, READ
    }

    private StoreConfigFragment() {
    }

    /**
     * The rules of these settings beyond each one's own (validate(), and {@code mirror-v3 validate} with
     * {@code offline}): the location (filesystem root, or S3 bucket, region, the identities {@code access} needs, endpoint)
     * and the encryption (keys dir, and the writer's key id and format). Errors go to {@code checks} per setting.
     *
     * @param offline contact and read nothing (the root and the keys dir are the worker's)
     * @return whether the location settings are complete and well-formed, so that an S3 store can be tried
     */
    public static boolean validate(Map<String, String> props, ConnectorChecks checks, Access access, boolean offline) {
        StoreValidator validator = new StoreValidator(props, checks, access, offline);
        boolean location = validator.checkLocation();
        validator.checkEncryption();
        return location;
    }

    /**
     * Defines the store settings in three groups: {@code destinationGroup} (type, root, name, encryption), S3 and Format.
     *
     * @param docs documentation that differs for this connector (by key); the others keep the shared text
     */
    public static void define(ConfigDef def, String destinationGroup, Map<String, String> docs) {
        int o = 0;
        def.define(DESTINATION_TYPE, Type.STRING, DESTINATION_TYPE_FILESYSTEM,
                ConfigDef.ValidString.in(DESTINATION_TYPE_FILESYSTEM, DESTINATION_TYPE_S3), Importance.HIGH,
                docs.getOrDefault(DESTINATION_TYPE, DESTINATION_TYPE_DOC), destinationGroup, ++o, Width.SHORT,
                "Destination type", List.of(),
                ConfigRecommenders.fixed(DESTINATION_TYPE_FILESYSTEM, DESTINATION_TYPE_S3));
        def.define(FILESYSTEM_ROOT, Type.STRING, "", Importance.HIGH, docs.getOrDefault(FILESYSTEM_ROOT, FILESYSTEM_ROOT_DOC),
                destinationGroup, ++o, Width.LONG, "Filesystem root", List.of(DESTINATION_TYPE), ConfigRecommenders.visibleForFilesystem());
        def.define(DESTINATION_NAME, Type.STRING, "", Importance.MEDIUM, docs.getOrDefault(DESTINATION_NAME, DESTINATION_NAME_DOC),
                destinationGroup, ++o, Width.MEDIUM, "Destination name");
        def.define(ENCRYPTION, Type.STRING, "", ConfigValidators.oneOfOrEmpty(ENCRYPTION_NONE, ENCRYPTION_PARQUET), Importance.HIGH,
                docs.getOrDefault(ENCRYPTION, ENCRYPTION_DOC), destinationGroup, ++o, Width.SHORT, "Encryption",
                List.of(ENCRYPTION_KEYS_DIR, ENCRYPTION_KEY_ID), ConfigRecommenders.fixed(ENCRYPTION_NONE, ENCRYPTION_PARQUET));
        def.define(ENCRYPTION_KEYS_DIR, Type.STRING, "", Importance.HIGH, docs.getOrDefault(ENCRYPTION_KEYS_DIR, ENCRYPTION_KEYS_DIR_DOC),
                destinationGroup, ++o, Width.LONG, "Encryption keys dir");
        def.define(ENCRYPTION_KEY_ID, Type.STRING, "", Importance.HIGH, docs.getOrDefault(ENCRYPTION_KEY_ID, ENCRYPTION_KEY_ID_DOC),
                destinationGroup, ++o, Width.SHORT, "Encryption key id");

        o = 0;
        for (S3Setting s3 : S3_SETTINGS) {
            def.define(s3.key(), s3.type(), s3.type() == Type.BOOLEAN ? false : "", s3.importance(),
                    docs.getOrDefault(s3.key(), s3.doc()), GROUP_S3, ++o, s3.width(), s3.display(), List.of(DESTINATION_TYPE),
                    ConfigRecommenders.visibleForS3());
        }

        o = 0;
        def.define(FORMAT, Type.STRING, "parquet", ConfigValidators.oneOf("parquet", "ndjson"), Importance.HIGH,
                docs.getOrDefault(FORMAT, FORMAT_DOC), GROUP_FORMAT, ++o, Width.SHORT, "Format", List.of(),
                ConfigRecommenders.fixed("parquet", "ndjson"));
        def.define(COMPRESSION, Type.STRING, "zstd", ConfigValidators.oneOf("zstd", "snappy", "uncompressed"), Importance.MEDIUM,
                docs.getOrDefault(COMPRESSION, COMPRESSION_DOC), GROUP_FORMAT, ++o, Width.SHORT, "Compression", List.of(FORMAT),
                ConfigRecommenders.compression());
        defineValueTypes(def, GROUP_FORMAT, ++o, docs);
    }

    /**
     * keys.type and values.type (bytes, utf8 or json), also the Kafka sink's, which checks records against them.
     *
     * @return the order after the last setting defined
     */
    public static int defineValueTypes(ConfigDef def, String group, int order, Map<String, String> docs) {
        def.define(KEYS_TYPE, Type.STRING, "bytes", ConfigValidators.oneOf("bytes", "utf8", "json"), Importance.MEDIUM,
                docs.getOrDefault(KEYS_TYPE, KEYS_TYPE_DOC), group, order++, Width.SHORT, "Keys type", List.of(),
                ConfigRecommenders.fixed("bytes", "utf8", "json"));
        def.define(VALUES_TYPE, Type.STRING, "bytes", ConfigValidators.oneOf("bytes", "utf8", "json"), Importance.MEDIUM,
                docs.getOrDefault(VALUES_TYPE, VALUES_TYPE_DOC), group, order++, Width.SHORT, "Values type", List.of(),
                ConfigRecommenders.fixed("bytes", "utf8", "json"));
        return order;
    }

    /** One S3 setting: shown only with destination.type=s3; empty by default (false for a flag). */
    private record S3Setting(String key, Type type, Importance importance, String doc, Width width, String display) {
    }

    private static final List<S3Setting> S3_SETTINGS = List.of(
            new S3Setting(S3_ENDPOINT, Type.STRING, Importance.MEDIUM, S3_ENDPOINT_DOC, Width.LONG, "S3 endpoint"),
            new S3Setting(S3_REGION, Type.STRING, Importance.HIGH, S3_REGION_DOC, Width.SHORT, "S3 region"),
            new S3Setting(S3_BUCKET, Type.STRING, Importance.HIGH, S3_BUCKET_DOC, Width.MEDIUM, "S3 bucket"),
            new S3Setting(S3_PREFIX, Type.STRING, Importance.MEDIUM, S3_PREFIX_DOC, Width.MEDIUM, "S3 prefix"),
            new S3Setting(S3_PATH_STYLE, Type.BOOLEAN, Importance.MEDIUM, S3_PATH_STYLE_DOC, Width.SHORT, "S3 path-style access"),
            new S3Setting(S3_WRITE_ACCESS_KEY_ID, Type.PASSWORD, Importance.HIGH, S3_WRITE_ACCESS_KEY_ID_DOC, Width.MEDIUM,
                    "S3 write identity: access key id"),
            new S3Setting(S3_WRITE_SECRET_ACCESS_KEY, Type.PASSWORD, Importance.HIGH, S3_WRITE_SECRET_ACCESS_KEY_DOC, Width.MEDIUM,
                    "S3 write identity: secret"),
            new S3Setting(S3_READ_ACCESS_KEY_ID, Type.PASSWORD, Importance.HIGH, S3_READ_ACCESS_KEY_ID_DOC, Width.MEDIUM,
                    "S3 read identity: access key id"),
            new S3Setting(S3_READ_SECRET_ACCESS_KEY, Type.PASSWORD, Importance.HIGH, S3_READ_SECRET_ACCESS_KEY_DOC, Width.MEDIUM,
                    "S3 read identity: secret"));
}
