package dev.mirrorv3.connect.blob;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;

/**
 * The blob sink's own validation ({@link BlobSinkConfig#CONFIG_DEF} and the cross-field rules {@code validate()}
 * adds) without Connect: what {@link BlobSinkConnector#validate} returns, callable by the {@code mirror-v3 validate}
 * command. Uses kafka-clients types only.
 */
public final class BlobSinkValidation {
    private BlobSinkValidation() {
    }

    /**
     * @param offline skip the checks that need the filesystem root or the source cluster
     * @return one {@code ConfigValue} per setting, with its error messages
     */
    public static Config validate(Map<String, String> props, boolean offline) {
        return new BlobSinkConfigValidator(props, new Config(BlobSinkConfig.CONFIG_DEF.validate(props)), offline).validate();
    }

    /** Settings under a deprecated name: one line each saying what to rename (they work; validate() does not fail on them). */
    public static List<String> warnings(Map<String, String> props) {
        return BlobSinkConfig.DEPRECATED.warnings(props);
    }
}
