package dev.mirrorv3.connect.source;

import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.s3.S3Store;
import dev.mirrorv3.kafka.config.ConfigFragment;
import dev.mirrorv3.kafka.config.DestinationSettings;
import dev.mirrorv3.kafka.config.Setting;
import dev.mirrorv3.kafka.config.StoreConfigFragment;
import dev.mirrorv3.kafka.config.StoreSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The backup's store as the chain source reads it: the blob sink's store settings ({@link StoreConfigFragment}, as a
 * reader), documented for a reader, and the store they open.
 */
final class BackupStore {
    static final String DESTINATION_NAME_DOC = """
            The backup's chain directory under the root: <root>/<destination.name>/<partition>/. \
            Required: the blob sink's destination.name, or the sink connector's name when it had none. ${topic} resolves to \
            the topic in 'topics'.""";

    static final String FILESYSTEM_ROOT_DOC = """
            Absolute path of the directory that holds the backup's chains \
            (destination.type=filesystem). <root>/<destination.name> must exist (the blob sink creates it); an existing \
            directory without objects is waited for.""";

    static final String S3_WRITE_IDENTITY_DOC = """
            Not used: the chain source only lists and reads (the read identity). Accepted so \
            that the blob sink's config can be reused as it is.""";
    static final String NOT_USED_BY_A_READER_DOC = """
            Not used: the chain source neither writes nor deletes (the blob sink writes with the Object Lock \
            retention, mirror-v3 prune deletes with the prune identity). Accepted so that the blob sink's config can be \
            reused as it is; the same rules apply (set in pairs, with destination.type=s3 only).""";
    static final String ENCRYPTION_DOC = """
            The backup's encryption as the blob sink's config gives it: 'none' or empty (plain Parquet or \
            NDJSON objects) or 'parquet' (Parquet modular encryption). Either way each object is read with the key its name \
            carries, from encryption.keys.dir; 'parquet' requires encryption.keys.dir.""";
    static final String ENCRYPTION_KEYS_DIR_DOC = """
            Absolute path of the directory of keys the blob sink encrypted the backup with (the \
            same mounted Secret): one file per key id, the standard base64 of 32 bytes. Needed when any object of the chain \
            is encrypted; a chain naming a key id without a file here fails the task, listing the missing ids. validate() \
            loads it and names the file that is not a key.""";
    static final String ENCRYPTION_KEY_ID_DOC = """
            Not used to read (each object names its own key); accepted so the blob sink's \
            configuration can be reused as it is.""";

    static final String DESTINATIONS_DOC = """
            The blob sink's destinations when it writes several (a tee, destinations=local,offsite), so \
            that its config can be reused as it is, destinations.<name>.* included: the chain source follows the one \
            'destination' names. Empty: the backup's settings are the ones without a prefix.""";
    static final String DESTINATION_DOC = """
            Which of the blob sink's destinations to follow, by name, when it writes several \
            (destinations=NAME,...): that destination's destinations.NAME.* settings describe the backup (its store, \
            destination.name, encryption), exactly as a single destination's. Required then (the connector names the \
            destinations when it is missing); refused without destinations.""";

    private BackupStore() {
    }

    /** destinations and destination: which destination of a tee's config is the backup. */
    static ConfigFragment destinations(String group) {
        return ConfigFragment.settings(group,
                Setting.of(DestinationSettings.DESTINATIONS, Type.LIST, "", Importance.MEDIUM, Width.MEDIUM, "Destinations (tee)",
                        DESTINATIONS_DOC),
                Setting.of(DestinationSettings.DESTINATION, Type.STRING, "", Importance.MEDIUM, Width.SHORT, "Destination followed",
                        DESTINATION_DOC));
    }

    /**
     * The settings of the destination followed, as a single destination's: a tee's one that destination names
     * ({@link DestinationSettings}), or {@code props} as they are.
     *
     * @throws ConfigException on destination, naming the destinations, when it names none of them
     */
    static Map<?, ?> followed(Map<?, ?> props) {
        if (!props.containsKey(DestinationSettings.DESTINATIONS) && !props.containsKey(DestinationSettings.DESTINATION)) {
            return props;
        }
        Map<String, String> strings = new HashMap<>();
        props.forEach((k, v) -> strings.put(String.valueOf(k), v == null ? null : String.valueOf(v)));
        try {
            return DestinationSettings.read(strings).settings();
        } catch (IllegalArgumentException e) {
            throw new ConfigException(DestinationSettings.DESTINATION, strings.get(DestinationSettings.DESTINATION), e.getMessage());
        }
    }

    /** The store settings in {@code group} (and the S3 and Format groups), as a reader's. */
    static StoreConfigFragment fragment(String group) {
        return new StoreConfigFragment(group, StoreConfigFragment.Access.READ, Map.ofEntries(
                Map.entry(StoreConfigFragment.DESTINATION_NAME, DESTINATION_NAME_DOC),
                Map.entry(StoreConfigFragment.FILESYSTEM_ROOT, FILESYSTEM_ROOT_DOC),
                Map.entry(StoreConfigFragment.S3_WRITE_ACCESS_KEY_ID, S3_WRITE_IDENTITY_DOC),
                Map.entry(StoreConfigFragment.S3_WRITE_SECRET_ACCESS_KEY, S3_WRITE_IDENTITY_DOC),
                Map.entry(StoreConfigFragment.S3_PRUNE_ACCESS_KEY_ID, NOT_USED_BY_A_READER_DOC),
                Map.entry(StoreConfigFragment.S3_PRUNE_SECRET_ACCESS_KEY, NOT_USED_BY_A_READER_DOC),
                Map.entry(StoreConfigFragment.S3_OBJECT_LOCK_MODE, NOT_USED_BY_A_READER_DOC),
                Map.entry(StoreConfigFragment.S3_OBJECT_LOCK_RETAIN_DAYS, NOT_USED_BY_A_READER_DOC),
                Map.entry(StoreConfigFragment.ENCRYPTION, ENCRYPTION_DOC),
                Map.entry(StoreConfigFragment.ENCRYPTION_KEYS_DIR, ENCRYPTION_KEYS_DIR_DOC),
                Map.entry(StoreConfigFragment.ENCRYPTION_KEY_ID, ENCRYPTION_KEY_ID_DOC)));
    }

    /** The backup's store under {@code destinationName}; the read identity stands in for an absent write identity. */
    static Store open(AbstractConfig config, String destinationName) {
        return settings(config).open(destinationName);
    }

    /** As {@link #open(AbstractConfig, String)}, with S3 calls that give up after {@code s3CallTimeout}. */
    static Store open(AbstractConfig config, String destinationName, Duration s3CallTimeout) {
        StoreSettings settings = settings(config);
        if (settings.s3()) {
            return new S3Store(settings.s3Settings().withCallTimeout(s3CallTimeout), destinationName);
        }
        return settings.open(destinationName);
    }

    private static StoreSettings settings(AbstractConfig config) {
        return StoreSettings.of(config.originalsStrings()).forReading();
    }
}
