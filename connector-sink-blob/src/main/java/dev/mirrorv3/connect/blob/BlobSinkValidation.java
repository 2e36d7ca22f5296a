package dev.mirrorv3.connect.blob;

import dev.mirrorv3.kafka.config.ConnectorLevelRules;
import dev.mirrorv3.kafka.config.ConnectorValidation;
import dev.mirrorv3.kafka.config.DestinationSettings;
import java.util.List;

/**
 * The blob sink's own validation ({@link BlobSinkConfig#CONFIG_DEF} and the cross-field rules {@code validate()}
 * adds) without Connect: what {@link BlobSinkConnector#validate} returns, callable by the {@code mirror-v3 validate}
 * command, with Connect's own connector-level rules ({@link ConnectorLevelRules}: the worker checks them before the
 * connector's validate() is called). Uses kafka-clients types only.
 */
public final class BlobSinkValidation {
    /** Prefixes of settings passed to clients or plugins as they are: known to validate and to the JSON Schema. */
    public static final List<String> PASS_THROUGH = List.of("consumer.override.", "admin.override.", "source.admin.", "transforms.",
            "predicates.", "key.converter.", "value.converter.", "header.converter.", DestinationSettings.PREFIX);

    /** The rules {@code validate()} and {@code mirror-v3 validate} apply, and the warnings they print. */
    public static final ConnectorValidation VALIDATION = new ConnectorValidation(BlobSinkConfig.FRAGMENTS,
            ConnectorLevelRules.Kind.SINK, PASS_THROUGH, BlobSinkConfigValidator::new);

    private BlobSinkValidation() {
    }
}
