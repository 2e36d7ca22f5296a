package dev.mirrorv3.connect.blob;

import dev.mirrorv3.kafka.config.ConnectorLevelRules;
import dev.mirrorv3.kafka.config.ConnectorValidation;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;

/**
 * The blob sink's own validation ({@link BlobSinkConfig#CONFIG_DEF} and the cross-field rules {@code validate()}
 * adds) without Connect: what {@link BlobSinkConnector#validate} returns, callable by the {@code mirror-v3 validate}
 * command, with Connect's own connector-level rules ({@link ConnectorLevelRules}: the worker checks them before the
 * connector's validate() is called). Uses kafka-clients types only.
 */
public final class BlobSinkValidation {
    /** Prefixes of settings passed to clients or plugins as they are: known to validate and to the JSON Schema. */
    public static final List<String> PASS_THROUGH = List.of("consumer.override.", "admin.override.", "source.admin.", "transforms.",
            "predicates.", "key.converter.", "value.converter.", "header.converter.");

    static final ConnectorValidation VALIDATION = new ConnectorValidation(BlobSinkConfig.FRAGMENTS,
            ConnectorLevelRules.Kind.SINK, PASS_THROUGH, BlobSinkConfigValidator::new);

    private BlobSinkValidation() {
    }

    /**
     * @param offline skip the checks that need the filesystem root or the source cluster
     * @return one {@code ConfigValue} per setting, with its error messages
     */
    public static Config validate(Map<String, String> props, boolean offline) {
        return VALIDATION.validate(props, offline);
    }

    /** Settings under a deprecated name and settings nobody knows: one line each saying what to rename. */
    public static List<String> warnings(Map<String, String> props) {
        return VALIDATION.warnings(props);
    }
}
