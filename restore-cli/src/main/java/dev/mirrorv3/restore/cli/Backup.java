package dev.mirrorv3.restore.cli;

import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.StoreFactory;
import java.util.Arrays;
import java.util.List;

/**
 * One backup as a blob sink connector's config describes it: the store ({@code destination.type} through chain-core's
 * {@link StoreFactory}, so S3 needs no code here), the chain directory name, the format and key/value types, and the
 * source topic every record must be of.
 */
record Backup(ConnectorConfig connector, String sourceTopic, String destinationName, EnvelopeSettings envelope) {
    static final String TOPIC_PLACEHOLDER = "${topic}";

    static Backup of(ConnectorConfig c, String sourceTopicOption) {
        List<String> topics = Arrays.stream(c.settings().getOrDefault("topics", "").split(","))
                .map(String::trim).filter(t -> !t.isEmpty()).toList();
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
        String name = c.settings().getOrDefault("destination.name", "");
        if (name.isBlank()) {
            name = c.name();
        }
        name = name.replace(TOPIC_PLACEHOLDER, topic);
        EnvelopeSettings envelope;
        try {
            envelope = StoreFactory.envelope(c.settings());
        } catch (IllegalArgumentException e) {
            throw new UsageException("connector " + c.name() + ": " + e.getMessage(), e);
        }
        return new Backup(c, topic, name, envelope);
    }

    /** Opens the store read-only in use: restore and status only list and read. */
    Store openStore() {
        try {
            return StoreFactory.open(connector.settings(), destinationName);
        } catch (IllegalArgumentException e) {
            throw new UsageException("connector " + connector.name() + ": " + e.getMessage(), e);
        }
    }
}
