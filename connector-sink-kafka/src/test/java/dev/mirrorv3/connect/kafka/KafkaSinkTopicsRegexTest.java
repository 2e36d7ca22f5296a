package dev.mirrorv3.connect.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.RebalancingSinkTaskContext;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A config with topics.regex that reaches start() without validate(): stored by an older version, or written to the
 * config topic directly. The connector and the task refuse it with validate()'s message.
 */
class KafkaSinkTopicsRegexTest {
    private static KafkaTestBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = KafkaTestBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static Map<String, String> storedConfig() {
        Map<String, String> config = KafkaSinkTestSupport.sinkConfig("", broker.bootstrapServers(), broker.bootstrapServers());
        config.remove("topics");
        config.put("topics.regex", "orders-.*");
        config.put("name", "regex-stored");
        return config;
    }

    /** What validate() says on topics.regex. */
    private static String validateMessage(Map<String, String> config) {
        List<String> errors = KafkaSinkValidation.VALIDATION.validate(config, true).configValues().stream()
                .filter(v -> v.name().equals("topics.regex")).map(ConfigValue::errorMessages).findFirst().orElseThrow();
        assertThat(errors).as("validate() refuses it").hasSize(1);
        return errors.get(0);
    }

    @Test
    void theConnectorRefusesAStoredTopicsRegexAtStart() {
        Map<String, String> config = storedConfig();
        KafkaSinkConnector connector = new KafkaSinkConnector();
        try {
            assertThatThrownBy(() -> connector.start(config)).hasMessage(validateMessage(config));
        } finally {
            connector.stop();
        }
    }

    @Test
    void theTaskRefusesAStoredTopicsRegexAtStart() {
        Map<String, String> config = storedConfig();
        KafkaSinkTask task = new KafkaSinkTask();
        try (RebalancingSinkTaskContext context = new RebalancingSinkTaskContext(config)) {
            task.initialize(context);
            assertThatThrownBy(() -> task.start(config)).hasMessage(validateMessage(config));
        } finally {
            task.stop();
        }
    }
}
