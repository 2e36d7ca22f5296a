package dev.mirrorv3.connect.source;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;

/**
 * The chain source's own validation ({@link ChainSourceConfig#CONFIG_DEF} and the cross-field rules {@code validate()}
 * adds) without Connect: what {@link ChainSourceConnector#validate} returns, callable by the {@code mirror-v3 validate}
 * command. Uses kafka-clients types only.
 */
public final class ChainSourceValidation {
    private ChainSourceValidation() {
    }

    /**
     * @param offline contact nothing: skip the checks that need the backup's store (its directory or bucket), the keys dir
     *     or the target cluster
     * @return one {@code ConfigValue} per setting, with its error messages
     */
    public static Config validate(Map<String, String> props, boolean offline) {
        return new ChainSourceConfigValidator(props, new Config(ChainSourceConfig.CONFIG_DEF.validate(props)), offline).validate();
    }

    /** Settings under a deprecated name: one line each saying what to rename (they work; validate() does not fail on them). */
    public static List<String> warnings(Map<String, String> props) {
        return ChainSourceConfig.DEPRECATED.warnings(props);
    }
}
