package dev.mirrorv3.connect.blob;

import dev.mirrorv3.testsupport.sink.StoredTopicsRegexContract;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/**
 * The blob sink's connector and task refuse a stored topics.regex at start ({@link StoredTopicsRegexContract}); its
 * destination.name holds ${topic}, as topics.regex requires.
 */
class BlobSinkTopicsRegexTest extends StoredTopicsRegexContract {
    @TempDir
    Path root;

    BlobSinkTopicsRegexTest() {
        super(BlobSinkConnector::new, BlobSinkTask::new, config -> BlobSinkValidation.VALIDATION.validate(config, true));
    }

    @Override
    protected Map<String, String> sinkConfig() {
        Map<String, String> config = BlobSinkTestSupport.sinkConfig("", root, broker.bootstrapServers());
        config.put("destination.name", "${topic}");
        return config;
    }
}
