package dev.mirrorv3.connect.blob;

import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.StartRefusals;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A config with topics.regex that reaches start() without validate(): stored by an older version, or written to the
 * config topic directly. The connector and the task refuse it with validate()'s message.
 */
class BlobSinkTopicsRegexTest {
    private static KafkaTestBroker broker;

    @TempDir
    Path root;

    @BeforeAll
    static void startBroker() {
        broker = KafkaTestBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private Map<String, String> storedConfig() {
        Map<String, String> config = BlobSinkTestSupport.sinkConfig("", root, broker.bootstrapServers());
        config.remove("topics");
        config.put("topics.regex", "orders-.*");
        config.put("destination.name", "${topic}");
        config.put("name", "regex-stored");
        return config;
    }

    private static String validateMessage(Map<String, String> config) {
        return StartRefusals.validateMessage(BlobSinkValidation.VALIDATION.validate(config, true), "topics.regex");
    }

    @Test
    void theConnectorRefusesAStoredTopicsRegexAtStart() {
        Map<String, String> config = storedConfig();
        StartRefusals.assertConnectorRefuses(new BlobSinkConnector(), config, validateMessage(config));
    }

    @Test
    void theTaskRefusesAStoredTopicsRegexAtStart() {
        Map<String, String> config = storedConfig();
        StartRefusals.assertTaskRefuses(new BlobSinkTask(), config, validateMessage(config));
    }
}
