package dev.mirrorv3.connect.source;

import dev.mirrorv3.kafka.config.ConnectorLevelRules;
import dev.mirrorv3.kafka.config.ConnectorValidation;
import dev.mirrorv3.kafka.config.DestinationSettings;
import java.util.List;

/**
 * The chain source's own validation ({@link ChainSourceConfig#CONFIG_DEF} and the cross-field rules {@code validate()}
 * adds) without Connect: what {@link ChainSourceConnector#validate} returns, callable by the {@code mirror-v3 validate}
 * command, with Connect's own connector-level rules ({@link ConnectorLevelRules}: the worker checks them before the
 * connector's validate() is called). Uses kafka-clients types only.
 */
public final class ChainSourceValidation {
    /** Prefixes of settings passed to clients or plugins as they are: known to validate and to the JSON Schema. */
    public static final List<String> PASS_THROUGH = List.of("producer.override.", "admin.override.", "target.admin.",
            "key.converter.", "value.converter.", "header.converter.", DestinationSettings.PREFIX);

    /** The rules {@code validate()} and {@code mirror-v3 validate} apply, and the warnings they print. */
    public static final ConnectorValidation VALIDATION = new ConnectorValidation(ChainSourceConfig.FRAGMENTS,
            ConnectorLevelRules.Kind.SOURCE, PASS_THROUGH, ChainSourceConfigValidator::new);

    private ChainSourceValidation() {
    }
}
