package dev.mirrorv3.connect.blob;

import dev.mirrorv3.testsupport.sink.StoredTopicsRegexContract;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.connect.sink.SinkConnector;
import org.apache.kafka.connect.sink.SinkTask;
import org.junit.jupiter.api.io.TempDir;

/** The blob sink's connector and task refuse a stored topics.regex at start ({@link StoredTopicsRegexContract}). */
class BlobSinkTopicsRegexTest extends StoredTopicsRegexContract {
    @TempDir
    Path root;

    @Override
    protected Map<String, String> sinkConfig() {
        return BlobSinkTestSupport.sinkConfig("", root, broker.bootstrapServers());
    }

    @Override
    protected Map<String, String> storedConfig() {
        Map<String, String> config = super.storedConfig();
        config.put("destination.name", "${topic}");
        return config;
    }

    @Override
    protected Config validate(Map<String, String> config) {
        return BlobSinkValidation.VALIDATION.validate(config, true);
    }

    @Override
    protected SinkConnector newConnector() {
        return new BlobSinkConnector();
    }

    @Override
    protected SinkTask newTask() {
        return new BlobSinkTask();
    }
}
