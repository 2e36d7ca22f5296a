package dev.mirrorv3.testsupport.sink;

import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.StartRefusals;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
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

    private final Supplier<SinkConnector> connectors;
    private final Supplier<SinkTask> tasks;
    private final Function<Map<String, String>, Config> validation;

    /** The connector's classes, and what its validate() says of a config. */
    protected StoredTopicsRegexContract(Supplier<SinkConnector> connectors, Supplier<SinkTask> tasks,
                                        Function<Map<String, String>, Config> validation) {
        this.connectors = connectors;
        this.tasks = tasks;
        this.validation = validation;
    }

    /** A valid config of the connector, with what topics.regex needs beside it (its topics replaced by the test). */
    protected abstract Map<String, String> sinkConfig();

    /** {@link #sinkConfig()} with topics.regex instead of topics. */
    private Map<String, String> storedConfig() {
        Map<String, String> config = sinkConfig();
        config.remove("topics");
        config.put("topics.regex", "orders-.*");
        config.put("name", "regex-stored");
        return config;
    }

    private String validateMessage(Map<String, String> config) {
        return StartRefusals.validateMessage(validation.apply(config), "topics.regex");
    }

    @Test
    void theConnectorRefusesAStoredTopicsRegexAtStart() {
        Map<String, String> config = storedConfig();
        StartRefusals.assertConnectorRefuses(connectors.get(), config, validateMessage(config));
    }

    @Test
    void theTaskRefusesAStoredTopicsRegexAtStart() {
        Map<String, String> config = storedConfig();
        StartRefusals.assertTaskRefuses(tasks.get(), config, validateMessage(config));
    }
}
