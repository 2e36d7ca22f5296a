package dev.mirrorv3.connect.kafka;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;

/**
 * The Kafka sink's own validation ({@link KafkaSinkConfig#CONFIG_DEF} and the cross-field rules {@code validate()}
 * adds) without Connect: what {@link KafkaSinkConnector#validate} returns, callable by the {@code mirror-v3 validate}
 * command. Uses kafka-clients types only.
 */
public final class KafkaSinkValidation {
    private KafkaSinkValidation() {
    }

    /**
     * @param offline contact nothing: skip the checks that need the source or the destination cluster
     * @return one {@code ConfigValue} per setting, with its error messages
     */
    public static Config validate(Map<String, String> props, boolean offline) {
        return new KafkaSinkConfigValidator(props, new Config(KafkaSinkConfig.CONFIG_DEF.validate(props)), offline).validate();
    }

    /** Settings under a deprecated name: none in the Kafka sink, whose names are the current ones. */
    public static List<String> warnings(Map<String, String> props) {
        return List.of();
    }
}
