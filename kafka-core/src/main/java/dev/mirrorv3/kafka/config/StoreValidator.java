package dev.mirrorv3.kafka.config;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.KeysDirException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rules of {@link StoreConfigFragment}'s settings, for the connector that writes a backup and the one that reads it:
 * where the backup lives (filesystem root, S3 bucket, region, identities, endpoint) and its encryption (keys dir, key
 * id). Online checks read the worker's filesystem (root, keys dir); offline ones contact and read nothing.
 */
final class StoreValidator {
    private final Map<String, String> props;
    private final ConnectorChecks checks;
    private final StoreConfigFragment.Access access;
    private final boolean offline;

    StoreValidator(Map<String, String> props, ConnectorChecks checks, StoreConfigFragment.Access access, boolean offline) {
        this.props = props;
        this.checks = checks;
        this.access = access;
        this.offline = offline;
    }

    private boolean writes() {
        return access == StoreConfigFragment.Access.WRITE;
    }

    private String get(String key) {
        return props.getOrDefault(key, "").trim();
    }

    /** @return whether the location settings are complete and well-formed (an S3 store can be tried) */
    boolean checkLocation() {
        if (checks.hasErrors(StoreConfigFragment.DESTINATION_TYPE)) {
            return false;
        }
        if (StoreConfigFragment.DESTINATION_TYPE_S3.equalsIgnoreCase(get(StoreConfigFragment.DESTINATION_TYPE))) {
            return checkS3();
        }
        String root = get(StoreConfigFragment.FILESYSTEM_ROOT);
        if (root.isEmpty()) {
            checks.error(StoreConfigFragment.FILESYSTEM_ROOT, "required with destination.type=filesystem: the absolute path of the"
                    + " directory that holds the backup's chains");
            return false;
        }
        Path path = Path.of(root);
        if (!path.isAbsolute()) {
            checks.error(StoreConfigFragment.FILESYSTEM_ROOT, "must be an absolute path (the worker's working directory is not a stable"
                    + " place): " + root);
            return false;
        }
        if (writes() && !offline) {
            Path existing = path;
            while (existing != null && !Files.exists(existing)) {
                existing = existing.getParent();
            }
            if (existing == null || !Files.isDirectory(existing) || !Files.isWritable(existing)) {
                checks.error(StoreConfigFragment.FILESYSTEM_ROOT, root + " cannot be created or written by the worker"
                        + (existing == null ? "" : " (" + existing + " is not a writable directory)"));
                return false;
            }
        }
        return true;
    }

    private boolean checkS3() {
        boolean complete = required(StoreConfigFragment.S3_BUCKET, "the bucket that holds the backup's chains");
        complete &= required(StoreConfigFragment.S3_REGION, "the bucket's region, e.g. eu-central-1 (us-east-1 for most S3-compatible"
                + " stores)");
        for (String role : writes() ? List.of("write", "read") : List.of("read")) {
            String what = "write".equals(role) ? "the identity that signs PutObject (s3:PutObject only)"
                    : "the identity that signs ListObjectsV2 and GetObject (s3:ListBucket, s3:GetObject)";
            complete &= required("s3." + role + ".access.key.id", "the access key id of " + what
                    + "; feed it through a config provider, e.g. ${env:S3_" + role.toUpperCase(Locale.ROOT) + "_ACCESS_KEY_ID}");
            complete &= required("s3." + role + ".secret.access.key", "the secret access key of " + what
                    + "; feed it through a config provider, e.g. ${file:/etc/kafka/s3.properties:" + role + ".secret.access.key}");
        }
        if (writes() && !checks.hasErrors(StoreConfigFragment.ENCRYPTION) && get(StoreConfigFragment.ENCRYPTION).isEmpty()) {
            checks.error(StoreConfigFragment.ENCRYPTION, "required with destination.type=s3, to be written out: set encryption=parquet"
                    + " (with encryption.keys.dir and encryption.key.id) or encryption=none (plain objects)");
        }
        String endpoint = get(StoreConfigFragment.S3_ENDPOINT);
        if (!endpoint.isEmpty()) {
            try {
                URI uri = new URI(endpoint);
                if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                    checks.error(StoreConfigFragment.S3_ENDPOINT, "must be an http:// or https:// URL with a host, e.g."
                            + " https://minio:9000 (found " + endpoint + ")");
                    complete = false;
                }
            } catch (URISyntaxException e) {
                checks.error(StoreConfigFragment.S3_ENDPOINT, "is not a URL: " + e.getMessage());
                complete = false;
            }
        }
        return complete;
    }

    private boolean required(String key, String what) {
        if (checks.hasErrors(key)) {
            return false;
        }
        if (get(key).isEmpty()) {
            checks.error(key, "required with destination.type=s3: " + what);
            return false;
        }
        return true;
    }

    /**
     * The S3 settings that come in pairs: the Object Lock retention (mode and days) and the prune identity (key id and
     * secret). Each pair is set whole or not at all, and only with destination.type=s3.
     */
    void checkS3Pairs() {
        if (checks.hasErrors(StoreConfigFragment.DESTINATION_TYPE)) {
            return;
        }
        boolean s3 = StoreConfigFragment.DESTINATION_TYPE_S3.equalsIgnoreCase(get(StoreConfigFragment.DESTINATION_TYPE));
        pair(s3, "a filesystem has no Object Lock",
                StoreConfigFragment.S3_OBJECT_LOCK_MODE, "governance (an identity allowed s3:BypassGovernanceRetention can still"
                        + " delete the object or shorten its retention) or compliance (nobody can until it ends)",
                StoreConfigFragment.S3_OBJECT_LOCK_RETAIN_DAYS, "the number of days each new object is kept unchanged (at least 1)");
        pair(s3, "the prune identity signs S3 requests",
                StoreConfigFragment.S3_PRUNE_ACCESS_KEY_ID, "the access key id of the prune identity (mirror-v3 prune only),"
                        + " through a config provider, e.g. ${env:S3_PRUNE_ACCESS_KEY_ID}",
                StoreConfigFragment.S3_PRUNE_SECRET_ACCESS_KEY, "the secret access key of the prune identity (mirror-v3 prune"
                        + " only), through a config provider, e.g. ${env:S3_PRUNE_SECRET_ACCESS_KEY}");
    }

    /** Two settings set together or not at all (each error says what the missing one is), on S3 only. */
    private void pair(boolean s3, String whyS3Only, String first, String firstIs, String second, String secondIs) {
        boolean hasFirst = !get(first).isEmpty();
        boolean hasSecond = !get(second).isEmpty();
        if (!s3) {
            for (String key : List.of(first, second)) {
                if (!get(key).isEmpty()) {
                    checks.error(key, "only with destination.type=s3: " + whyS3Only + "; remove it");
                }
            }
        } else if (hasFirst && !hasSecond && !checks.hasErrors(second)) {
            checks.error(second, "required with " + first + ": " + secondIs);
        } else if (hasSecond && !hasFirst && !checks.hasErrors(first)) {
            checks.error(first, "required with " + second + ": " + firstIs);
        }
    }

    /**
     * encryption=parquet needs a keys dir that loads (its errors name the file that is wrong, never a key); the writer
     * also needs Parquet objects and a valid key id whose file is there. Which key ids a chain needs, the reader checks
     * when it lists the chain.
     */
    void checkEncryption() {
        if (checks.hasErrors(StoreConfigFragment.ENCRYPTION)) {
            return;
        }
        boolean parquet = StoreConfigFragment.ENCRYPTION_PARQUET.equalsIgnoreCase(get(StoreConfigFragment.ENCRYPTION));
        String keyId = writes() ? checkKeyId(parquet) : "";
        String dir = get(StoreConfigFragment.ENCRYPTION_KEYS_DIR);
        if (checks.hasErrors(StoreConfigFragment.ENCRYPTION_KEYS_DIR)) {
            return;
        }
        if (dir.isEmpty()) {
            if (parquet) {
                checks.error(StoreConfigFragment.ENCRYPTION_KEYS_DIR, "required with encryption=parquet: the directory of key files (a"
                        + " mounted Secret), one file per key id holding the base64 of 32 random bytes; a reader needs the writer's"
                        + " keys dir, with the key file of every key id the backup's objects name");
            }
            return;
        }
        if (!Path.of(dir).isAbsolute()) {
            checks.error(StoreConfigFragment.ENCRYPTION_KEYS_DIR, "must be an absolute path: " + dir);
            return;
        }
        if (offline) {
            return;
        }
        KeyRing keys;
        try {
            keys = KeyRing.load(Path.of(dir));
        } catch (KeysDirException e) {
            checks.error(StoreConfigFragment.ENCRYPTION_KEYS_DIR, e.getMessage());
            return;
        }
        if (parquet && !keyId.isEmpty() && !keys.has(keyId)) {
            checks.error(StoreConfigFragment.ENCRYPTION_KEY_ID, Path.of(dir).resolve(keyId) + " does not exist: add the key file of "
                    + keyId + " (the base64 of 32 random bytes) to the keys dir, or name one of its keys " + keys.ids());
        }
    }

    /** The writer's key id rules; returns the key id to look for in the keys dir, empty when there is none to look for. */
    private String checkKeyId(boolean parquet) {
        String keyId = get(StoreConfigFragment.ENCRYPTION_KEY_ID);
        if (parquet && "ndjson".equalsIgnoreCase(props.getOrDefault(StoreConfigFragment.FORMAT, "parquet").trim())) {
            String why = "encryption=parquet is Parquet modular encryption and NDJSON objects cannot be encrypted: set"
                    + " format=parquet, or encryption=none";
            checks.error(StoreConfigFragment.ENCRYPTION, why);
            checks.error(StoreConfigFragment.FORMAT, why);
        }
        if (!parquet && !keyId.isEmpty()) {
            checks.error(StoreConfigFragment.ENCRYPTION_KEY_ID, "set, but encryption is not parquet: new objects would be plain. Set"
                    + " encryption=parquet, or remove encryption.key.id (keep encryption.keys.dir while the chain holds encrypted"
                    + " objects)");
        }
        if (parquet && keyId.isEmpty()) {
            checks.error(StoreConfigFragment.ENCRYPTION_KEY_ID, "required with encryption=parquet: the id of the key new objects are"
                    + " written with, the name of its file in encryption.keys.dir");
        } else if (parquet && !ObjectName.isValidKeyId(keyId)) {
            checks.error(StoreConfigFragment.ENCRYPTION_KEY_ID, "'" + keyId + "' is not a key id: [a-z0-9][a-z0-9-]{0,31} (lower-case"
                    + " letters, digits, '-', at most 32 characters)");
            return "";
        }
        return keyId;
    }
}
