package dev.mirrorv3.connect.blob;

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
}
