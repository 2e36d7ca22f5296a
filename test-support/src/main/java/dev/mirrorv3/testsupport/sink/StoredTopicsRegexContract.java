package dev.mirrorv3.testsupport.sink;

import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.StartRefusals;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.connect.sink.SinkConnector;
import org.apache.kafka.connect.sink.SinkTask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A config with topics.regex that reaches start() without validate(): stored by an older version, or written to the
 * config topic directly. Every sink's connector and task refuse it with validate()'s message; each connector
 * subclasses this with its classes and config.
 */
public abstract class StoredTopicsRegexContract {
    @RegisterExtension
    protected static final KafkaTestBroker broker = KafkaTestBroker.perClass();

    /** A valid config of the connector (its topics replaced by the test). */
    protected abstract Map<String, String> sinkConfig();

    /** What the connector's validate() says of {@code config}. */
    protected abstract Config validate(Map<String, String> config);

    protected abstract SinkConnector newConnector();

    protected abstract SinkTask newTask();

    /** {@link #sinkConfig()} with topics.regex instead of topics; a connector adds what topics.regex needs beside it. */
    protected Map<String, String> storedConfig() {
        Map<String, String> config = sinkConfig();
        config.remove("topics");
        config.put("topics.regex", "orders-.*");
        config.put("name", "regex-stored");
        return config;
    }

    private String validateMessage(Map<String, String> config) {
        return StartRefusals.validateMessage(validate(config), "topics.regex");
    }

    @Test
    void theConnectorRefusesAStoredTopicsRegexAtStart() {
        Map<String, String> config = storedConfig();
        StartRefusals.assertConnectorRefuses(newConnector(), config, validateMessage(config));
    }

    @Test
    void theTaskRefusesAStoredTopicsRegexAtStart() {
        Map<String, String> config = storedConfig();
        StartRefusals.assertTaskRefuses(newTask(), config, validateMessage(config));
    }
}
