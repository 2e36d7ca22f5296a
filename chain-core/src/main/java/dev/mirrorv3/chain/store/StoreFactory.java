package dev.mirrorv3.chain.store;

import dev.mirrorv3.chain.envelope.Compression;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ValueType;
import dev.mirrorv3.chain.store.s3.NewObjectRetention;
import dev.mirrorv3.chain.store.s3.S3Identity;
import dev.mirrorv3.chain.store.s3.S3Settings;
import dev.mirrorv3.chain.store.s3.S3Store;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The one place that turns a blob connector's settings (a plain map, as in the connector's JSON) into a
 * {@link Store} and the chain's {@link EnvelopeSettings}. Shared by the blob sink, the restore CLI and the chain
 * source connector, so a new store type (S3) is added here once and every user picks it up from
 * {@code destination.type}. Keys and defaults are the blob sink's ({@code BlobSinkConfig}).
 */
public final class StoreFactory {
    public static final String DESTINATION_TYPE = "destination.type";
    public static final String FILESYSTEM_ROOT = "filesystem.root";
    public static final String FORMAT = "format";
    public static final String COMPRESSION = "compression";
    public static final String KEYS_TYPE = "keys.type";
    public static final String VALUES_TYPE = "values.type";
    public static final String S3_ENDPOINT = "s3.endpoint";
    public static final String S3_REGION = "s3.region";
    public static final String S3_BUCKET = "s3.bucket";
    public static final String S3_PREFIX = "s3.prefix";
    public static final String S3_PATH_STYLE = "s3.path.style.access";
    public static final String S3_WRITE_ACCESS_KEY_ID = "s3.write.access.key.id";
    public static final String S3_WRITE_SECRET_ACCESS_KEY = "s3.write.secret.access.key";
    public static final String S3_READ_ACCESS_KEY_ID = "s3.read.access.key.id";
    public static final String S3_READ_SECRET_ACCESS_KEY = "s3.read.secret.access.key";
    public static final String S3_PRUNE_ACCESS_KEY_ID = "s3.prune.access.key.id";
    public static final String S3_PRUNE_SECRET_ACCESS_KEY = "s3.prune.secret.access.key";
    public static final String S3_OBJECT_LOCK_MODE = "s3.object.lock.mode";
    public static final String S3_OBJECT_LOCK_RETAIN_DAYS = "s3.object.lock.retain.days";

    private StoreFactory() {
    }

    /**
     * Opens the store of one backup.
     *
     * @param settings the connector's settings (config providers already resolved)
     * @param destinationName the chain directory's name under the root ({@code destination.name} resolved)
     * @throws IllegalArgumentException naming the setting when the settings do not describe a store
     */
    public static Store open(Map<String, String> settings, String destinationName) {
        return open(settings, destinationName, new StoreRequests());
    }

    /**
     * As {@link #open(Map, String)}, counting every request the store makes into {@code requests} (the store request
     * metric of a connector or a command-line run).
     */
    public static Store open(Map<String, String> settings, String destinationName, StoreRequests requests) {
        String type = settings.getOrDefault(DESTINATION_TYPE, "filesystem").trim();
        switch (type) {
            case "filesystem": {
                String root = settings.getOrDefault(FILESYSTEM_ROOT, "").trim();
                if (root.isEmpty()) {
                    throw new IllegalArgumentException(FILESYSTEM_ROOT + " is required with " + DESTINATION_TYPE + "=filesystem");
                }
                return new FilesystemStore(Path.of(root), destinationName, requests);
            }
            case "s3":
                return new S3Store(s3Settings(settings), destinationName, requests);
            default:
                throw new IllegalArgumentException("unknown " + DESTINATION_TYPE + " '" + type + "': use filesystem or s3");
        }
    }

    /**
     * Opens the store of one backup for {@code mirror-v3 prune}: on S3 every request is signed with the prune identity
     * ({@link S3Settings#pruneOnly()}), which is the only one allowed to delete; a filesystem store as {@link #open}.
     *
     * @throws IllegalArgumentException naming the setting when the settings do not describe a store, or an S3 store has
     *     no prune identity
     */
    public static Store openForPrune(Map<String, String> settings, String destinationName) {
        if ("s3".equals(settings.getOrDefault(DESTINATION_TYPE, "filesystem").trim())) {
            return new S3Store(s3Settings(settings).pruneOnly(), destinationName);
        }
        return open(settings, destinationName);
    }

    /** An S3 destination's settings (keys and defaults of the blob sink's {@code s3.*} settings). */
    public static S3Settings s3Settings(Map<String, String> settings) {
        String endpoint = settings.getOrDefault(S3_ENDPOINT, "").trim();
        S3Settings s3 = S3Settings.of(endpoint.isEmpty() ? Optional.empty() : Optional.of(URI.create(endpoint)),
                settings.getOrDefault(S3_REGION, "").trim(), settings.getOrDefault(S3_BUCKET, "").trim(),
                settings.getOrDefault(S3_PREFIX, ""), Boolean.parseBoolean(settings.getOrDefault(S3_PATH_STYLE, "false").trim()),
                new S3Identity("write", secret(settings, S3_WRITE_ACCESS_KEY_ID), secret(settings, S3_WRITE_SECRET_ACCESS_KEY)),
                new S3Identity("read", secret(settings, S3_READ_ACCESS_KEY_ID), secret(settings, S3_READ_SECRET_ACCESS_KEY)));
        if (!secret(settings, S3_PRUNE_ACCESS_KEY_ID).isEmpty()) {
            s3 = s3.withPrune(new S3Identity("prune", secret(settings, S3_PRUNE_ACCESS_KEY_ID),
                    secret(settings, S3_PRUNE_SECRET_ACCESS_KEY)));
        }
        String lockMode = settings.getOrDefault(S3_OBJECT_LOCK_MODE, "").trim();
        return lockMode.isEmpty() ? s3 : s3.withObjectLock(NewObjectRetention.of(lockMode, retainDays(settings)));
    }

    private static int retainDays(Map<String, String> settings) {
        String days = settings.getOrDefault(S3_OBJECT_LOCK_RETAIN_DAYS, "").trim();
        try {
            return Integer.parseInt(days);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(S3_OBJECT_LOCK_RETAIN_DAYS + " must be a number of days (at least 1) with "
                    + S3_OBJECT_LOCK_MODE + " (found '" + days + "')", e);
        }
    }

    private static String secret(Map<String, String> settings, String key) {
        return settings.getOrDefault(key, "").trim();
    }

    /** Format, compression and key/value types of the chain, with the blob sink's defaults. */
    public static EnvelopeSettings envelope(Map<String, String> settings) {
        return new EnvelopeSettings(
                EnvelopeFormat.fromConfig(settings.getOrDefault(FORMAT, "parquet").trim()),
                Compression.fromConfig(settings.getOrDefault(COMPRESSION, "zstd").trim()),
                ValueType.fromConfig(settings.getOrDefault(KEYS_TYPE, "bytes").trim()),
                ValueType.fromConfig(settings.getOrDefault(VALUES_TYPE, "bytes").trim()));
    }
}
