package dev.mirrorv3.kafka.config;

import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ValueType;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.StoreFactory;
import dev.mirrorv3.chain.store.StoreRequests;
import dev.mirrorv3.chain.store.s3.S3Settings;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The typed view of {@link StoreConfigFragment}'s settings for one destination: where its backup lives, its format and
 * its encryption, read from the settings as the connector's config holds them (config providers resolved; a tee's
 * destination through {@link DestinationSettings#store()}). Callers read the store settings here, never by key from a
 * map: the fragment owns the keys, their defaults (an absent or blank value reads as the setting's default) and how a
 * value is read. Validation stays the fragment's ({@link StoreValidator}); this view reads what validation let through,
 * and what it has not seen as it is (a validator's view, a wrong destination.type).
 */
public final class StoreSettings {
    private final Map<String, String> settings;

    private StoreSettings(Map<String, String> settings) {
        this.settings = settings;
    }

    /** The store settings among {@code settings}, a single destination's connector settings (the other keys are ignored). */
    public static StoreSettings of(Map<String, String> settings) {
        return new StoreSettings(settings);
    }

    /** A setting as given, trimmed; empty when unset. */
    String get(String key) {
        return settings.getOrDefault(key, "").trim();
    }

    /** destination.type as given: filesystem (also when unset) or s3. */
    public String destinationType() {
        return settings.getOrDefault(StoreConfigFragment.DESTINATION_TYPE, StoreConfigFragment.DESTINATION_TYPE_FILESYSTEM).trim();
    }

    /** destination.type=s3 (any case). */
    public boolean s3() {
        return StoreConfigFragment.DESTINATION_TYPE_S3.equalsIgnoreCase(get(StoreConfigFragment.DESTINATION_TYPE));
    }

    /** destination.type=filesystem (any case), also when unset. */
    public boolean filesystem() {
        return StoreConfigFragment.DESTINATION_TYPE_FILESYSTEM.equalsIgnoreCase(destinationType());
    }

    /** filesystem.root: the directory that holds the chains (the empty path when unset). */
    public Path filesystemRoot() {
        return Path.of(get(StoreConfigFragment.FILESYSTEM_ROOT));
    }

    /** destination.name as given, trimmed: empty means the connector's name; may hold ${topic}. */
    public String destinationName() {
        return get(StoreConfigFragment.DESTINATION_NAME);
    }

    /** The chain directory's name of {@code topic} ({@link DestinationSettings#chainName(String, String, String)}'s rule). */
    public String chainName(String connectorName, String topic) {
        return DestinationSettings.chainName(destinationName(), connectorName, topic);
    }

    /** s3.endpoint; empty for AWS S3. */
    public String s3Endpoint() {
        return get(StoreConfigFragment.S3_ENDPOINT);
    }

    public String s3Bucket() {
        return get(StoreConfigFragment.S3_BUCKET);
    }

    /** s3.prefix, trimmed, as given (its segments are split by the store). */
    public String s3Prefix() {
        return get(StoreConfigFragment.S3_PREFIX);
    }

    /** The S3 destination, read by the one shared factory (the restore CLI reads the same settings). */
    public S3Settings s3Settings() {
        return StoreFactory.s3Settings(settings);
    }

    /** format=ndjson (any case). */
    public boolean ndjson() {
        return "ndjson".equalsIgnoreCase(get(StoreConfigFragment.FORMAT));
    }

    /** Format, compression and the key and value types, with the settings' defaults. */
    public EnvelopeSettings envelope() {
        return StoreFactory.envelope(settings);
    }

    public ValueType keysType() {
        return envelope().keysType();
    }

    public ValueType valuesType() {
        return envelope().valuesType();
    }

    /** encryption.keys.dir, trimmed; empty when unset. */
    public String keysDir() {
        return get(StoreConfigFragment.ENCRYPTION_KEYS_DIR);
    }

    /**
     * The keys to read the backup's objects with: those of encryption.keys.dir, none without one (a writer's key id is
     * not needed to read).
     *
     * @throws dev.mirrorv3.chain.crypto.KeysDirException naming the setting or the key file that is wrong
     */
    public KeyRing keys() {
        String dir = keysDir();
        return dir.isEmpty() ? KeyRing.empty() : KeyRing.load(Path.of(dir));
    }

    /**
     * A writer's keys and the key id of new objects, read from the keys dir now.
     *
     * @throws dev.mirrorv3.chain.crypto.KeysDirException naming the setting or the key file that is wrong
     */
    public ObjectEncryption encryption() {
        return ObjectEncryption.fromSettings(settings);
    }

    /**
     * These settings for a reader, which only lists and reads: without a write identity, the read identity stands in
     * for it (an S3 store is opened with both).
     */
    public StoreSettings forReading() {
        if (!settings.getOrDefault(StoreConfigFragment.S3_WRITE_ACCESS_KEY_ID, "").isBlank()) {
            return this;
        }
        Map<String, String> reading = new HashMap<>(settings);
        reading.put(StoreConfigFragment.S3_WRITE_ACCESS_KEY_ID, settings.getOrDefault(StoreConfigFragment.S3_READ_ACCESS_KEY_ID, ""));
        reading.put(StoreConfigFragment.S3_WRITE_SECRET_ACCESS_KEY,
                settings.getOrDefault(StoreConfigFragment.S3_READ_SECRET_ACCESS_KEY, ""));
        return new StoreSettings(reading);
    }

    /**
     * Opens the store of the backup under {@code destinationName} (destination.name resolved).
     *
     * @throws IllegalArgumentException naming the setting when the settings do not describe a store
     */
    public Store open(String destinationName) {
        return StoreFactory.open(settings, destinationName);
    }

    /** As {@link #open(String)}, counting every request the store makes into {@code requests}. */
    public Store open(String destinationName, StoreRequests requests) {
        return StoreFactory.open(settings, destinationName, requests);
    }

    /**
     * Opens the store for {@code mirror-v3 prune}: on S3 with the prune identity, the only one allowed to delete.
     *
     * @throws IllegalArgumentException naming the setting when the settings do not describe a store, or an S3 store has
     *     no prune identity
     */
    public Store openForPrune(String destinationName) {
        return StoreFactory.openForPrune(settings, destinationName);
    }
}
