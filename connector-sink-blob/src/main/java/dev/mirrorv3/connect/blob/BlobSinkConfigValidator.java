package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.KeysDirException;
import dev.mirrorv3.chain.store.StoreException;
import dev.mirrorv3.chain.store.s3.S3AccessException;
import dev.mirrorv3.chain.store.s3.S3Settings;
import dev.mirrorv3.chain.store.s3.S3Store;
import dev.mirrorv3.kafka.config.ConnectorChecks;
import dev.mirrorv3.kafka.config.ReachFailure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;

/**
 * Cross-field rules of the blob sink (README: Back up a topic, Decisions), each error attached to the setting it concerns, so that
 * {@code PUT /connector-plugins/{class}/config/validate} reports it per field and says how to fix it.
 */
final class BlobSinkConfigValidator {
    static final String BYTE_ARRAY_CONVERTER = ConnectorChecks.BYTE_ARRAY_CONVERTER;

    private final Map<String, String> props;
    private final Config config;
    private final ConnectorChecks checks;
    private final boolean offline;

    BlobSinkConfigValidator(Map<String, String> props, Config config) {
        this(props, config, false);
    }

    /**
     * @param offline contact nothing (CI of GitOps repositories): skip the checks that need the filesystem root, the
     *     keys dir, the S3 bucket or the source cluster
     */
    BlobSinkConfigValidator(Map<String, String> props, Config config, boolean offline) {
        this.props = props;
        this.config = config;
        this.checks = new ConnectorChecks(props, config);
        this.offline = offline;
    }

    Config validate() {
        checks.requireSetting("consumer.override.auto.offset.reset", "none",
                "without it Connect's sink consumer uses 'earliest' and would silently jump over records that retention removed"
                        + " before they were backed up; with 'none' a lost position fails the task");
        checks.requireSetting("consumer.override.isolation.level", "read_committed",
                "only committed records may be backed up; aborted records and transaction markers become holes");
        checks.refuseErrorsToleranceAll("errors.tolerance=all would skip records and leave holes that look like compaction;"
                + " the backup must hold every record. Remove errors.tolerance or set it to none");
        checks.requireByteArrayConverters("the backup keeps the records' exact bytes");
        checks.refuseTransforms("no transform may run in front of the blob sink: a changed record would not be the source's,"
                + " and a dropped one would look like a hole. Remove transforms");
        checkTopics();
        checkCompaction();
        checkDestination();
        checkEncryption();
        checkSourceCluster();
        return config;
    }

    private void checkTopics() {
        String name = props.getOrDefault(BlobSinkConfig.DESTINATION_NAME, "");
        boolean perTopic = name.contains(BlobSinkConfig.TOPIC_PLACEHOLDER);
        String regex = props.get("topics.regex");
        if (regex != null && !regex.isBlank() && !perTopic) {
            error("topics.regex", "topics.regex can match several topics, whose partitions would share one chain directory;"
                    + " set destination.name to a name containing ${topic}, e.g. ${topic}-backup");
        }
        String topics = props.get("topics");
        if (topics != null && Arrays.stream(topics.split(",")).map(String::trim).filter(s -> !s.isEmpty()).count() > 1 && !perTopic) {
            error("topics", "several topics would share one chain directory per partition; set destination.name to a name"
                    + " containing ${topic} (e.g. ${topic}), or deploy one connector per topic");
        }
    }

    private void checkCompaction() {
        if (!BlobSinkConfig.COMPACTION_LOG.equalsIgnoreCase(props.getOrDefault(BlobSinkConfig.COMPACTION, "").trim())) {
            return;
        }
        if ("ndjson".equalsIgnoreCase(props.getOrDefault(BlobSinkConfig.FORMAT, "").trim())) {
            error(BlobSinkConfig.COMPACTION, "compaction=log writes Parquet snapshots sorted by key; set format=parquet, or back this"
                    + " topic up as an NDJSON chain with compaction=none. Note that every flush of compaction=log rewrites the whole"
                    + " snapshot (a pass over every key): flush.max.time.ms defaults to one hour in this mode; keep it well below the"
                    + " topic's delete.retention.ms");
        }
        // Each flush of this mode rewrites the whole snapshot: the flush interval trades backup freshness against a pass over
        // every key and one snapshot-sized object per flush (COMPACTION_DOC says so in the settings reference).
    }

    private void checkDestination() {
        if (hasErrors(BlobSinkConfig.DESTINATION_TYPE)) {
            return;
        }
        if (BlobSinkConfig.DESTINATION_TYPE_S3.equalsIgnoreCase(props.getOrDefault(BlobSinkConfig.DESTINATION_TYPE, ""))) {
            checkS3();
            return;
        }
        String root = props.getOrDefault(BlobSinkConfig.FILESYSTEM_ROOT, "");
        if (root.isBlank()) {
            error(BlobSinkConfig.FILESYSTEM_ROOT, "required with destination.type=filesystem: the absolute path of the backup directory");
            return;
        }
        Path path = Path.of(root);
        if (!path.isAbsolute()) {
            error(BlobSinkConfig.FILESYSTEM_ROOT, "must be an absolute path (the worker's working directory is not a stable place): " + root);
            return;
        }
        if (offline) {
            return;
        }
        Path existing = path;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null || !Files.isDirectory(existing) || !Files.isWritable(existing)) {
            error(BlobSinkConfig.FILESYSTEM_ROOT, root + " cannot be created or written by the worker"
                    + (existing == null ? "" : " (" + existing + " is not a writable directory)"));
        }
    }

    private void checkS3() {
        boolean complete = true;
        complete &= required(BlobSinkConfig.S3_BUCKET, "the bucket that holds the chains");
        complete &= required(BlobSinkConfig.S3_REGION, "the bucket's region, e.g. eu-central-1 (us-east-1 for most S3-compatible stores)");
        for (String role : List.of("write", "read")) {
            String what = "write".equals(role) ? "the identity that signs PutObject (s3:PutObject only)"
                    : "the identity that signs ListObjectsV2 and GetObject (s3:ListBucket, s3:GetObject)";
            complete &= required("s3." + role + ".access.key.id", "the access key id of " + what
                    + "; feed it through a config provider, e.g. ${env:S3_" + role.toUpperCase(java.util.Locale.ROOT) + "_ACCESS_KEY_ID}");
            complete &= required("s3." + role + ".secret.access.key", "the secret access key of " + what
                    + "; feed it through a config provider, e.g. ${file:/etc/kafka/s3.properties:" + role + ".secret.access.key}");
        }
        if (!hasErrors(BlobSinkConfig.ENCRYPTION) && props.getOrDefault(BlobSinkConfig.ENCRYPTION, "").isBlank()) {
            error(BlobSinkConfig.ENCRYPTION, "required with destination.type=s3, to be written out: set encryption=parquet (with"
                    + " encryption.keys.dir and encryption.key.id) or encryption=none (plain objects)");
        }
        String endpoint = props.getOrDefault(BlobSinkConfig.S3_ENDPOINT, "").trim();
        if (!endpoint.isEmpty()) {
            try {
                java.net.URI uri = new java.net.URI(endpoint);
                if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                    error(BlobSinkConfig.S3_ENDPOINT, "must be an http:// or https:// URL with a host, e.g. https://minio:9000 (found " + endpoint + ")");
                    complete = false;
                }
            } catch (java.net.URISyntaxException e) {
                error(BlobSinkConfig.S3_ENDPOINT, "is not a URL: " + e.getMessage());
                complete = false;
            }
        }
        if (complete && !offline) {
            checkS3Access();
        }
    }

    /** One ListObjectsV2 (at most one key) with the read identity: bucket, endpoint and credentials, within ~5 s. */
    private void checkS3Access() {
        BlobSinkConfig parsed;
        try {
            parsed = new BlobSinkConfig(props);
        } catch (RuntimeException e) {
            return; // single-field errors are already reported
        }
        S3Settings settings = parsed.s3Settings().withCallTimeout(java.time.Duration.ofSeconds(5));
        // The chain prefix of the (first) topic, since a least-privilege policy may allow listing under it only.
        String topic = Arrays.stream(props.getOrDefault("topics", "").split(",")).map(String::trim).filter(t -> !t.isEmpty())
                .findFirst().orElse("");
        String name = parsed.destinationName(props.getOrDefault("name", "blob-sink"), topic);
        try (S3Store store = new S3Store(settings, name)) {
            store.checkReadAccess();
        } catch (S3AccessException e) {
            String key = switch (e.problem()) {
                case NO_BUCKET -> BlobSinkConfig.S3_BUCKET;
                case CREDENTIALS, DENIED -> "s3." + e.role() + ".access.key.id";
                case OTHER -> BlobSinkConfig.S3_BUCKET;
            };
            error(key, e.getMessage());
        } catch (StoreException e) {
            error(props.getOrDefault(BlobSinkConfig.S3_ENDPOINT, "").isBlank() ? BlobSinkConfig.S3_REGION : BlobSinkConfig.S3_ENDPOINT,
                    "cannot reach " + settings.describe() + ": " + ReachFailure.describe(e) + " (one ListObjectsV2 within 5 s;"
                            + " check s3.endpoint, s3.region and the network to it)");
        }
    }

    /** encryption=parquet: Parquet format, a keys dir that loads, a key id with a file there. Never a key in a message. */
    private void checkEncryption() {
        if (hasErrors(BlobSinkConfig.ENCRYPTION)) {
            return;
        }
        boolean parquet = BlobSinkConfig.ENCRYPTION_PARQUET.equalsIgnoreCase(props.getOrDefault(BlobSinkConfig.ENCRYPTION, "").trim());
        String dir = props.getOrDefault(BlobSinkConfig.ENCRYPTION_KEYS_DIR, "").trim();
        String keyId = props.getOrDefault(BlobSinkConfig.ENCRYPTION_KEY_ID, "").trim();
        if (parquet && "ndjson".equalsIgnoreCase(props.getOrDefault(BlobSinkConfig.FORMAT, "parquet").trim())) {
            String why = "encryption=parquet is Parquet modular encryption and NDJSON objects cannot be encrypted: set"
                    + " format=parquet, or encryption=none";
            error(BlobSinkConfig.ENCRYPTION, why);
            error(BlobSinkConfig.FORMAT, why);
        }
        if (!parquet && !keyId.isEmpty()) {
            error(BlobSinkConfig.ENCRYPTION_KEY_ID, "set, but encryption is not parquet: new objects would be plain. Set"
                    + " encryption=parquet, or remove encryption.key.id (keep encryption.keys.dir while the chain holds encrypted objects)");
        }
        if (parquet && keyId.isEmpty()) {
            error(BlobSinkConfig.ENCRYPTION_KEY_ID, "required with encryption=parquet: the id of the key new objects are written"
                    + " with, the name of its file in encryption.keys.dir");
        } else if (parquet && !dev.mirrorv3.chain.ObjectName.isValidKeyId(keyId)) {
            error(BlobSinkConfig.ENCRYPTION_KEY_ID, "'" + keyId + "' is not a key id: [a-z0-9][a-z0-9-]{0,31} (lower-case letters,"
                    + " digits, '-', at most 32 characters)");
            keyId = "";
        }
        if (dir.isEmpty()) {
            if (parquet) {
                error(BlobSinkConfig.ENCRYPTION_KEYS_DIR, "required with encryption=parquet: the directory of key files (a mounted"
                        + " Secret), one file per key id holding the base64 of 32 random bytes");
            }
            return;
        }
        if (!Path.of(dir).isAbsolute()) {
            error(BlobSinkConfig.ENCRYPTION_KEYS_DIR, "must be an absolute path: " + dir);
            return;
        }
        if (offline) {
            return;
        }
        KeyRing keys;
        try {
            keys = KeyRing.load(Path.of(dir));
        } catch (KeysDirException e) {
            error(BlobSinkConfig.ENCRYPTION_KEYS_DIR, e.getMessage());
            return;
        }
        if (parquet && !keyId.isEmpty() && !keys.has(keyId)) {
            error(BlobSinkConfig.ENCRYPTION_KEY_ID, Path.of(dir).resolve(keyId) + " does not exist: add the key file of " + keyId
                    + " (the base64 of 32 random bytes) to the keys dir, or name one of its keys " + keys.ids());
        }
    }

    private boolean required(String key, String what) {
        if (hasErrors(key)) {
            return false;
        }
        if (props.getOrDefault(key, "").isBlank()) {
            error(key, "required with destination.type=s3: " + what);
            return false;
        }
        return true;
    }

    private void checkSourceCluster() {
        String bootstrap = checks.requireSourceBootstrap();
        if (bootstrap == null || offline) {
            return;
        }
        BlobSinkConfig parsed;
        try {
            parsed = new BlobSinkConfig(props);
        } catch (RuntimeException e) {
            return; // single-field errors are already reported
        }
        checks.checkSourceReachable(parsed.sourceAdminConfig(), bootstrap);
    }

    private boolean hasErrors(String key) {
        return checks.hasErrors(key);
    }

    private void error(String key, String message) {
        checks.error(key, message);
    }
}
