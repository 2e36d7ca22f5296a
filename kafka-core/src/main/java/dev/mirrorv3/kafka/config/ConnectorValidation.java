package dev.mirrorv3.kafka.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;

/**
 * A connector's whole validation without Connect: the ConfigDef's single-field checks, the connector's validator (its
 * fragments' rules and its own), and Connect's connector-level rules ({@link ConnectorLevelRules}: the worker checks them
 * before the connector's validate() is called); and the warnings of {@code mirror-v3 validate}. Uses kafka-clients types
 * only.
 *
 * @param passThrough prefixes of settings passed to clients or plugins as they are: known to validate and to the JSON Schema
 */
public record ConnectorValidation(ConfigFragments fragments, ConnectorLevelRules.Kind kind, List<String> passThrough,
        ConnectorValidator.Factory validator) {

    /**
     * @param offline contact nothing: skip the checks that need the worker's files, a cluster or a store
     * @return one {@code ConfigValue} per setting, with its error messages
     */
    public Config validate(Map<String, String> props, boolean offline) {
        Config config = validator.create(props, new Config(fragments.configDef().validate(props)), offline).validate();
        ConnectorLevelRules.validate(props, kind, new ConnectorChecks(props, config));
        return config;
    }

    /** A connector's validate(): {@code connect} is Connect's single-field result, to which the cross-field errors are added. */
    public Config connectorValidate(Map<String, String> props, Config connect) {
        return validator.create(props, connect, false).validate();
    }

    /**
     * Settings under a deprecated name (they work; validate() does not fail on them) and settings nobody knows (a worker
     * ignores them): one line each saying what to rename.
     */
    public List<String> warnings(Map<String, String> props) {
        List<String> warnings = new ArrayList<>();
        if (fragments.deprecated() != null) {
            warnings.addAll(fragments.deprecated().warnings(props));
        }
        warnings.addAll(ConnectorLevelRules.unknownKeys(props, fragments.configDef().names(), passThrough, kind));
        return warnings;
    }
}
