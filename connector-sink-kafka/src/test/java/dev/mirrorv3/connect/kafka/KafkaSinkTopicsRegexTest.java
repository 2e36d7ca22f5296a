package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.testsupport.sink.StoredTopicsRegexContract;
import java.util.Map;

/** The Kafka sink's connector and task refuse a stored topics.regex at start ({@link StoredTopicsRegexContract}). */
class KafkaSinkTopicsRegexTest extends StoredTopicsRegexContract {
    KafkaSinkTopicsRegexTest() {
        super(KafkaSinkConnector::new, KafkaSinkTask::new, config -> KafkaSinkValidation.VALIDATION.validate(config, true));
    }

    @Override
    protected Map<String, String> sinkConfig() {
        return KafkaSinkTestSupport.sinkConfig("", broker.bootstrapServers(), broker.bootstrapServers());
    }
}
