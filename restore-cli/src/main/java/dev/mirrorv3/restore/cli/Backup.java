package dev.mirrorv3.restore.cli;

import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.KeysDirException;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.StoreRequests;
import dev.mirrorv3.kafka.config.DestinationSettings;
import dev.mirrorv3.kafka.config.StoreSettings;
import dev.mirrorv3.kafka.config.TopicsSetting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One backup as a blob sink connector's config describes it: the store ({@code destination.type} through the typed
 * {@link StoreSettings}, which opens it with chain-core's store factory, so S3 needs no code here), the chain directory
 * name, the format and key/value types, and the source topic every record must be of; and every request the run makes
 * to the store ({@code --metrics-file}).
 */
public record Backup(ConnectorConfig connector, String sourceTopic, String destinationName, EnvelopeSettings envelope, KeyRing keys,
                     StoreRequests requests) {
    public static final String TOPIC_PLACEHOLDER = DestinationSettings.TOPIC_PLACEHOLDER;

    public static Backup of(ConnectorConfig c, String sourceTopicOption) {
        return of(c, sourceTopicOption, null);
    }

    /**
     * @param keysDir {@code --keys-dir}: where the keys are here; null means the connector's encryption.keys.dir if it
     *     exists where this command runs (it is the worker's path), else no keys
     */
    public static Backup of(ConnectorConfig c, String sourceTopicOption, Path keysDir) {
        return of(c, sourceTopicOption, keysDir, null);
    }

    /**
     * @param destination {@code --destination}: which destination of a connector with several (destinations=a,b);
     *     null for a connector's one destination. The backup is then read from that destination's settings alone.
     */
    public static Backup of(ConnectorConfig whole, String sourceTopicOption, Path keysDir, String destination) {
        ConnectorConfig c;
        try {
            c = new ConnectorConfig(whole.name(), DestinationSettings.select(whole.settings(), destination).settings());
        } catch (IllegalArgumentException e) {
            throw new UsageException("connector " + whole.name() + ": " + e.getMessage() + " (--destination NAME)", e);
        }
        List<String> topics = TopicsSetting.listed(c.settings());
        String topic;
        if (sourceTopicOption != null) {
            if (!topics.isEmpty() && !topics.contains(sourceTopicOption)) {
                throw new UsageException("connector " + c.name() + " backs up " + topics + ", not " + sourceTopicOption);
            }
            topic = sourceTopicOption;
        } else if (topics.size() == 1) {
            topic = topics.get(0);
        } else {
            throw new UsageException("connector " + c.name() + " backs up " + (topics.isEmpty() ? "topics matching topics.regex" : topics)
                    + ": pass --source-topic TOPIC to say which backup to read");
        }
        String name = DestinationSettings.select(c.settings(), null).chainName(c.name(), topic);
        EnvelopeSettings envelope;
        try {
            envelope = StoreSettings.of(c.settings()).envelope();
        } catch (IllegalArgumentException e) {
            throw new UsageException("connector " + c.name() + ": " + e.getMessage(), e);
        }
        return new Backup(c, topic, name, envelope, keys(c, keysDir), new StoreRequests());
    }

    /**
     * The keys to read a connector's encrypted chains with: {@code --keys-dir}, else its encryption.keys.dir if it exists
     * here, else none (a chain that needs keys then names the missing ids).
     */
    public static KeyRing keys(ConnectorConfig c, Path keysDir) {
        try {
            if (keysDir != null) {
                return KeyRing.load(keysDir);
            }
            String configured = StoreSettings.of(c.settings()).keysDir();
            if (configured.isEmpty()) {
                return KeyRing.empty("no keys dir (pass --keys-dir DIR; connector " + c.name() + " has no encryption.keys.dir)");
            }
            if (!Files.isDirectory(Path.of(configured))) {
                return KeyRing.empty("no keys dir (connector " + c.name() + "'s encryption.keys.dir " + configured
                        + " does not exist here: pass --keys-dir DIR)");
            }
            return KeyRing.load(Path.of(configured));
        } catch (KeysDirException e) {
            throw new UsageException("connector " + c.name() + ": " + e.getMessage(), e);
        }
    }

    /** Whether the connector writes snapshots (compaction=log) rather than a chain. */
    public boolean snapshots() {
        return "log".equalsIgnoreCase(connector.settings().getOrDefault("compaction", "none").trim());
    }

    /** Opens the store with the prune identity ({@code s3.prune.*}), the only one that may delete. */
    public Store openStoreForPrune() {
        try {
            return StoreSettings.of(connector.settings()).openForPrune(destinationName);
        } catch (IllegalArgumentException e) {
            throw new UsageException("connector " + connector.name() + ": " + e.getMessage(), e);
        }
    }

    /** Opens the store read-only in use (restore and status only list and read), counting its requests in {@link #requests()}. */
    public Store openStore() {
        try {
            return StoreSettings.of(connector.settings()).open(destinationName, requests);
        } catch (IllegalArgumentException e) {
            throw new UsageException("connector " + connector.name() + ": " + e.getMessage(), e);
        }
    }
}
