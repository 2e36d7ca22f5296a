package dev.mirrorv3.kafka.config;

import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.store.StoreFactory;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The settings that describe where a backup lives and how its objects are written (destination, S3, format): one
 * definition shared by the blob sink that writes a backup and the chain source that reads it back, so a sink's GitOps
 * JSON can be reused as it is. The fragment owns these keys: it defines and validates them ({@link StoreValidator}),
 * and everything else reads them through its typed view, {@link StoreSettings}, never by key from a map. The key
 * strings are chain-core's ({@link StoreFactory}, {@link ObjectEncryption}), which opens a store from the same settings.
 */
public final class StoreConfigFragment implements ConfigFragment {
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
    public static final String S3_PRUNE_ACCESS_KEY_ID = StoreFactory.S3_PRUNE_ACCESS_KEY_ID;
    public static final String S3_PRUNE_SECRET_ACCESS_KEY = StoreFactory.S3_PRUNE_SECRET_ACCESS_KEY;
    public static final String S3_OBJECT_LOCK_MODE = StoreFactory.S3_OBJECT_LOCK_MODE;
    public static final String S3_OBJECT_LOCK_RETAIN_DAYS = StoreFactory.S3_OBJECT_LOCK_RETAIN_DAYS;
    public static final String FORMAT = StoreFactory.FORMAT;
    public static final String COMPRESSION = StoreFactory.COMPRESSION;
    public static final String KEYS_TYPE = StoreFactory.KEYS_TYPE;
    public static final String VALUES_TYPE = StoreFactory.VALUES_TYPE;

    public static final String GROUP_S3 = "S3";
    public static final String GROUP_FORMAT = "Format";

    static final String DESTINATION_TYPE_DOC = """
            Where the chains live. 'filesystem': a local or mounted directory (filesystem.root); \
            's3': an S3 bucket or an S3-compatible store (s3.* settings).""";
    static final String DESTINATION_NAME_DOC = """
            The chain directory's name under the root: <root>/<destination.name>/<partition>/. \
            Empty means the connector's name. May contain ${topic}, which is required when the connector reads several topics. \
            mirror-v3's early versions used the topic name; set it to that to continue such a backup.""";
    static final String FILESYSTEM_ROOT_DOC = """
            Absolute path of the directory that holds the chains (destination.type=filesystem). \
            Created if missing. Objects are committed with fsync and link(2), so any POSIX filesystem with hard links works.""";
    static final String S3_ENDPOINT_DOC = """
            URL of an S3-compatible store (MinIO, Ceph, VersityGW, S3Proxy), e.g. https://minio:9000; \
            empty for AWS S3 (the region's endpoint).""";
    static final String S3_REGION_DOC = """
            Region of the bucket, e.g. eu-central-1 (required with destination.type=s3; S3-compatible stores \
            usually accept us-east-1). Never read from AWS_REGION or a profile.""";
    static final String S3_BUCKET_DOC = "The bucket that holds the chains (required with destination.type=s3). It must exist.";
    static final String S3_PREFIX_DOC = """
            Key prefix of the chains: objects are <prefix>/<destination.name>/<partition>/<object>. Split on \
            '/' with empty segments dropped, as mirror-v3 does ('archive/' = 'archive'). Empty: chains at the bucket's top.""";
    static final String S3_PATH_STYLE_DOC = """
            Address the bucket in the path (http://endpoint/bucket/key) instead of the host name; \
            most S3-compatible stores need true.""";
    static final String S3_WRITE_ACCESS_KEY_ID_DOC = """
            Access key id of the write identity, which signs PutObject only (the bucket \
            policy needs to allow it s3:PutObject on the prefix, nothing else). Feed it through a config provider, e.g. \
            ${env:S3_WRITE_ACCESS_KEY_ID} or ${file:/etc/kafka/s3.properties:write.access.key.id}. Credentials are never \
            discovered from AWS_* variables, profiles or instance metadata.""";
    static final String S3_WRITE_SECRET_ACCESS_KEY_DOC = """
            Secret access key of the write identity. Never logged, [hidden] in \
            validate output; the stored connector config (GET /connectors/<name>/config) holds what it was given, so give \
            it a config provider reference, as s3.write.access.key.id.""";
    static final String S3_READ_ACCESS_KEY_ID_DOC = """
            Access key id of the read identity, which signs ListObjectsV2, GetObject and \
            HeadObject (the bucket policy needs to allow it s3:ListBucket on the prefix and s3:GetObject); through a config \
            provider, as s3.write.access.key.id.""";
    static final String S3_READ_SECRET_ACCESS_KEY_DOC = "Secret access key of the read identity; through a config provider.";
    static final String S3_PRUNE_ACCESS_KEY_ID_DOC = """
            Access key id of the prune identity, the only one allowed to delete: mirror-v3 prune signs every \
            request with it (ListObjectsV2, GetObject, GetObjectRetention, DeleteObject, and the PutObject with If-None-Match: * \
            of a chain's recorded start), so the bucket policy allows it s3:ListBucket on the prefix, s3:GetObject, \
            s3:GetObjectRetention, s3:DeleteObject and s3:PutObject, nothing else. The connectors never use it: set it where \
            mirror-v3 prune reads this config, through a config provider resolved there, e.g. ${env:S3_PRUNE_ACCESS_KEY_ID} \
            with the variable set only where prune runs (Connect leaves a reference it cannot resolve as it is).""";
    static final String S3_PRUNE_SECRET_ACCESS_KEY_DOC = """
            Secret access key of the prune identity; through a config provider, as s3.prune.access.key.id.""";
    static final String S3_OBJECT_LOCK_MODE_DOC = """
            The S3 Object Lock retention mode every new object is written with, with s3.object.lock.retain.days: \
            'governance' (an identity allowed s3:BypassGovernanceRetention can still delete the object or shorten its \
            retention) or 'compliance' (nobody can, not even the account's root user, until the retention ends). Empty: no \
            retention of its own (a bucket's default retention still applies). The bucket must have Object Lock enabled \
            (validate checks it with the read identity, which then needs s3:GetBucketObjectLockConfiguration) and the write \
            identity needs s3:PutObjectRetention.""";
    static final String S3_OBJECT_LOCK_RETAIN_DAYS_DOC = """
            Days each new object is kept unchanged, from its PutObject (the worker's clock), with \
            s3.object.lock.mode: until then no identity can overwrite or delete it, not even with the write identity's keys. \
            Objects still under retention when mirror-v3 prune would remove them are skipped and reported.""";
    static final String ENCRYPTION_DOC = """
            Encryption of the objects' content; required with destination.type=s3, where it must be \
            written out. 'none': plain Parquet or NDJSON objects (use the bucket's server-side encryption if needed). \
            'parquet': Parquet modular encryption (AES_GCM_V1, encrypted footer, every column) with the key \
            encryption.key.id from encryption.keys.dir; objects are named <from>-<to>.k-<key id>.parquet and are readable \
            only with the key. Needs format=parquet. Empty means none on a filesystem.""";
    static final String ENCRYPTION_KEYS_DIR_DOC = """
            Absolute path of the directory of keys, normally a mounted Kubernetes Secret: one \
            file per key, named by its key id ([a-z0-9][a-z0-9-]{0,31}), holding the standard base64 of 32 random bytes \
            (openssl rand -base64 32); entries starting with '.' are skipped. Every object is read with the key its name \
            carries, so keep the files of older keys as long as objects encrypted with them exist. Also needed with \
            encryption=none while the chain holds encrypted objects.""";
    static final String ENCRYPTION_KEY_ID_DOC = """
            The key id new objects are encrypted with (encryption=parquet); its file must exist \
            in encryption.keys.dir. Rotation: add the new key's file, change this setting (the connector restarts its \
            task); older objects stay readable with their own keys.""";
    static final String FORMAT_DOC = """
            Object format: 'parquet' (columnar, compressed, readable by DuckDB, Spark, pyarrow) or \
            'ndjson' (one JSON object per line; binary as base64).""";
    static final String COMPRESSION_DOC = """
            Parquet compression codec: 'zstd' (level 1, as mirror-v3), 'snappy' or 'uncompressed'. \
            Ignored for ndjson.""";
    static final String KEYS_TYPE_DOC = """
            How keys are stored: 'bytes' (exact bytes, any content; Parquet BINARY), 'utf8' (must be \
            valid UTF-8; Parquet STRING) or 'json' (must parse as JSON; JSON-annotated STRING). A key that does not fit \
            fails the task, naming topic, partition and offset.""";
    static final String VALUES_TYPE_DOC = "How values are stored; as keys.type.";

    /** What a connector does with the store: the blob sink writes a backup, the chain source reads one. */
    public enum Access {
        WRITE, READ
    }

    private final String destinationGroup;
    private final Access access;
    private final Map<String, String> docs;

    /**
     * The store settings in three groups: {@code destinationGroup} (type, root, name, encryption), S3 and Format.
     *
     * @param access what the connector does with the store, which decides the identities it needs
     * @param docs documentation that differs for this connector (by key); the others keep the shared text
     */
    public StoreConfigFragment(String destinationGroup, Access access, Map<String, String> docs) {
        this.destinationGroup = destinationGroup;
        this.access = access;
        this.docs = docs;
    }

    @Override
    public void define(SettingsTable table) {
        table.add(destinationGroup, documented(DESTINATION_SETTINGS, docs));
        table.add(GROUP_S3, documented(S3_SETTINGS, docs));
        table.add(GROUP_FORMAT, documented(FORMAT_SETTINGS, docs));
        valueTypes(GROUP_FORMAT, docs).define(table);
    }

    /**
     * The rules of these settings beyond each one's own (validate(), and {@code mirror-v3 validate} with
     * {@code offline}): the location (filesystem root, or S3 bucket, region, the identities the access needs, endpoint),
     * the encryption (keys dir, and the writer's key id and format), and the S3 settings that come in pairs (the Object
     * Lock retention, the prune identity). Errors go to {@code checks} per setting.
     *
     * @param offline contact and read nothing (the root and the keys dir are the worker's)
     */
    @Override
    public void validate(Map<String, String> props, ConnectorChecks checks, boolean offline) {
        if (!DestinationSettings.isTee(props)) {
            if (access == Access.READ) {
                DestinationSettings.checkRead(props, checks); // refuses naming a destination without a tee
            }
            validateOne(props, checks, offline);
            return;
        }
        ConfigDef own = new ConfigDef();
        define(new SettingsTable(own));
        List<DestinationSettings> checked = access == Access.WRITE ? DestinationSettings.checkTee(props, checks)
                : DestinationSettings.checkRead(props, checks).stream().toList();
        for (DestinationSettings d : checked) {
            ConnectorChecks prefixed = checks.prefixed(d.key(""), d.settings());
            DestinationSettings.checkValues(d, own, prefixed);
            validateOne(d.settings(), prefixed, offline);
        }
    }

    private void validateOne(Map<String, String> props, ConnectorChecks checks, boolean offline) {
        StoreValidator validator = new StoreValidator(props, checks, access, offline);
        validator.checkLocation();
        validator.checkEncryption();
        validator.checkS3Pairs();
    }

    /**
     * Whether the location settings are complete and well-formed after {@link #validate}, so that the store can be tried:
     * none of the settings of the chosen destination type has an error.
     */
    boolean locationComplete(Map<String, String> props, ConnectorChecks checks) {
        if (DestinationSettings.isTee(props)) {
            List<DestinationSettings> ds = access == Access.WRITE ? DestinationSettings.all(props) : readable(props);
            return !ds.isEmpty() && ds.stream()
                    .allMatch(d -> locationComplete(d.settings(), checks.prefixed(d.key(""), d.settings())));
        }
        if (checks.hasErrors(DESTINATION_TYPE)) {
            return false;
        }
        boolean s3 = StoreSettings.of(props).s3();
        List<String> location = !s3 ? List.of(FILESYSTEM_ROOT) : access == Access.WRITE
                ? List.of(S3_BUCKET, S3_REGION, S3_WRITE_ACCESS_KEY_ID, S3_WRITE_SECRET_ACCESS_KEY, S3_READ_ACCESS_KEY_ID,
                        S3_READ_SECRET_ACCESS_KEY, S3_ENDPOINT)
                : List.of(S3_BUCKET, S3_REGION, S3_READ_ACCESS_KEY_ID, S3_READ_SECRET_ACCESS_KEY, S3_ENDPOINT);
        return location.stream().noneMatch(checks::hasErrors);
    }

    /** The one destination of a tee a reader reads, none when its {@value DestinationSettings#DESTINATION} is wrong. */
    private static List<DestinationSettings> readable(Map<String, String> props) {
        try {
            return List.of(DestinationSettings.read(props));
        } catch (IllegalArgumentException e) {
            return List.of();
        }
    }

    /** keys.type and values.type (bytes, utf8 or json) in {@code group}; also the Kafka sink's, which checks records against them. */
    public static ConfigFragment valueTypes(String group, Map<String, String> docs) {
        return ConfigFragment.settings(group, valueType(KEYS_TYPE, KEYS_TYPE_DOC, "Keys type").docFrom(docs),
                valueType(VALUES_TYPE, VALUES_TYPE_DOC, "Values type").docFrom(docs));
    }

    private static Setting valueType(String key, String doc, String display) {
        return Setting.of(key, Type.STRING, "bytes", Importance.MEDIUM, Width.SHORT, display, doc)
                .withValidator(ConfigValidators.oneOf("bytes", "utf8", "json"))
                .withRecommender(ConfigRecommenders.fixed("bytes", "utf8", "json"));
    }

    private static List<Setting> documented(List<Setting> settings, Map<String, String> docs) {
        return settings.stream().map(s -> s.docFrom(docs)).toList();
    }

    private static final List<Setting> DESTINATION_SETTINGS = List.of(
            Setting.of(DESTINATION_TYPE, Type.STRING, DESTINATION_TYPE_FILESYSTEM, Importance.HIGH, Width.SHORT, "Destination type",
                    DESTINATION_TYPE_DOC).withValidator(ConfigDef.ValidString.in(DESTINATION_TYPE_FILESYSTEM, DESTINATION_TYPE_S3))
                    .withRecommender(ConfigRecommenders.fixed(DESTINATION_TYPE_FILESYSTEM, DESTINATION_TYPE_S3)),
            Setting.of(FILESYSTEM_ROOT, Type.STRING, "", Importance.HIGH, Width.LONG, "Filesystem root", FILESYSTEM_ROOT_DOC)
                    .withDependents(DESTINATION_TYPE).withRecommender(StoreRecommenders.visibleForFilesystem()),
            Setting.of(DESTINATION_NAME, Type.STRING, "", Importance.MEDIUM, Width.MEDIUM, "Destination name", DESTINATION_NAME_DOC),
            Setting.of(ENCRYPTION, Type.STRING, "", Importance.HIGH, Width.SHORT, "Encryption", ENCRYPTION_DOC)
                    .withValidator(ConfigValidators.oneOfOrEmpty(ENCRYPTION_NONE, ENCRYPTION_PARQUET))
                    .withDependents(ENCRYPTION_KEYS_DIR, ENCRYPTION_KEY_ID)
                    .withRecommender(ConfigRecommenders.fixed(ENCRYPTION_NONE, ENCRYPTION_PARQUET)),
            Setting.of(ENCRYPTION_KEYS_DIR, Type.STRING, "", Importance.HIGH, Width.LONG, "Encryption keys dir", ENCRYPTION_KEYS_DIR_DOC),
            Setting.of(ENCRYPTION_KEY_ID, Type.STRING, "", Importance.HIGH, Width.SHORT, "Encryption key id", ENCRYPTION_KEY_ID_DOC));

    private static final List<Setting> FORMAT_SETTINGS = List.of(
            Setting.of(FORMAT, Type.STRING, "parquet", Importance.HIGH, Width.SHORT, "Format", FORMAT_DOC)
                    .withValidator(ConfigValidators.oneOf("parquet", "ndjson"))
                    .withRecommender(ConfigRecommenders.fixed("parquet", "ndjson")),
            Setting.of(COMPRESSION, Type.STRING, "zstd", Importance.MEDIUM, Width.SHORT, "Compression", COMPRESSION_DOC)
                    .withValidator(ConfigValidators.oneOf("zstd", "snappy", "uncompressed")).withDependents(FORMAT)
                    .withRecommender(StoreRecommenders.compression()));

    /** The S3 settings: shown only with destination.type=s3; empty by default (false for a flag, none for a number). */
    private static final List<Setting> S3_SETTINGS = Stream.of(List.of(
            s3(S3_ENDPOINT, Type.STRING, Importance.MEDIUM, Width.LONG, "S3 endpoint", S3_ENDPOINT_DOC),
            s3(S3_REGION, Type.STRING, Importance.HIGH, Width.SHORT, "S3 region", S3_REGION_DOC),
            s3(S3_BUCKET, Type.STRING, Importance.HIGH, Width.MEDIUM, "S3 bucket", S3_BUCKET_DOC),
            s3(S3_PREFIX, Type.STRING, Importance.MEDIUM, Width.MEDIUM, "S3 prefix", S3_PREFIX_DOC),
            s3(S3_PATH_STYLE, Type.BOOLEAN, Importance.MEDIUM, Width.SHORT, "S3 path-style access", S3_PATH_STYLE_DOC)),
            identity("write", S3_WRITE_ACCESS_KEY_ID, S3_WRITE_SECRET_ACCESS_KEY, Importance.HIGH, S3_WRITE_ACCESS_KEY_ID_DOC,
                    S3_WRITE_SECRET_ACCESS_KEY_DOC),
            identity("read", S3_READ_ACCESS_KEY_ID, S3_READ_SECRET_ACCESS_KEY, Importance.HIGH, S3_READ_ACCESS_KEY_ID_DOC,
                    S3_READ_SECRET_ACCESS_KEY_DOC),
            identity("prune", S3_PRUNE_ACCESS_KEY_ID, S3_PRUNE_SECRET_ACCESS_KEY, Importance.LOW, S3_PRUNE_ACCESS_KEY_ID_DOC,
                    S3_PRUNE_SECRET_ACCESS_KEY_DOC),
            List.of(s3(S3_OBJECT_LOCK_MODE, Type.STRING, Importance.MEDIUM, Width.SHORT, "S3 Object Lock mode",
                            S3_OBJECT_LOCK_MODE_DOC).withValidator(ConfigValidators.oneOfOrEmpty("governance", "compliance")),
                    s3(S3_OBJECT_LOCK_RETAIN_DAYS, Type.INT, Importance.MEDIUM, Width.SHORT, "S3 Object Lock retention (days)",
                            S3_OBJECT_LOCK_RETAIN_DAYS_DOC).withValidator(ConfigValidators.nullOr(ConfigDef.Range.atLeast(1)))))
            .flatMap(List::stream).toList();

    /** Every key the fragment defines: what a destination of a tee sets under its prefix. */
    public static final Set<String> KEYS = Stream.concat(Stream.of(DESTINATION_SETTINGS, S3_SETTINGS, FORMAT_SETTINGS)
            .flatMap(List::stream).map(Setting::key), Stream.of(KEYS_TYPE, VALUES_TYPE)).collect(Collectors.toUnmodifiableSet());

    /** An S3 identity's access key id and secret (passwords), displayed as "S3 {@code role} identity: ...". */
    private static List<Setting> identity(String role, String keyId, String secret, Importance importance, String keyIdDoc,
            String secretDoc) {
        String display = "S3 " + role + " identity: ";
        return List.of(s3(keyId, Type.PASSWORD, importance, Width.MEDIUM, display + "access key id", keyIdDoc),
                s3(secret, Type.PASSWORD, importance, Width.MEDIUM, display + "secret", secretDoc));
    }

    private static Setting s3(String key, Type type, Importance importance, Width width, String display, String doc) {
        Object none = type == Type.BOOLEAN ? Boolean.FALSE : type == Type.INT ? null : "";
        return Setting.of(key, type, none, importance, width, display, doc).withDependents(DESTINATION_TYPE)
                .withRecommender(StoreRecommenders.visibleForS3());
    }
}
