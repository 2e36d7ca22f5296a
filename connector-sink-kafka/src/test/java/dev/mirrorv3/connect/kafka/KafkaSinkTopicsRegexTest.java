package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.testsupport.sink.StoredTopicsRegexContract;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.connect.sink.SinkConnector;
import org.apache.kafka.connect.sink.SinkTask;

/** The Kafka sink's connector and task refuse a stored topics.regex at start ({@link StoredTopicsRegexContract}). */
class KafkaSinkTopicsRegexTest extends StoredTopicsRegexContract {
    @Override
    protected Map<String, String> sinkConfig() {
        return KafkaSinkTestSupport.sinkConfig("", broker.bootstrapServers(), broker.bootstrapServers());
    }

    @Override
    protected Config validate(Map<String, String> config) {
        return KafkaSinkValidation.VALIDATION.validate(config, true);
    }

    @Override
    protected SinkConnector newConnector() {
        return new KafkaSinkConnector();
    }

    @Override
    protected SinkTask newTask() {
        return new KafkaSinkTask();
    }
}
