package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.StartRefusals;
import java.util.Map;
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

    private static String validateMessage(Map<String, String> config) {
        return StartRefusals.validateMessage(KafkaSinkValidation.VALIDATION.validate(config, true), "topics.regex");
    }

    @Test
    void theConnectorRefusesAStoredTopicsRegexAtStart() {
        Map<String, String> config = storedConfig();
        StartRefusals.assertConnectorRefuses(new KafkaSinkConnector(), config, validateMessage(config));
    }

    @Test
    void theTaskRefusesAStoredTopicsRegexAtStart() {
        Map<String, String> config = storedConfig();
        StartRefusals.assertTaskRefuses(new KafkaSinkTask(), config, validateMessage(config));
    }
}
