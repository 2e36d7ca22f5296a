package dev.mirrorv3.kafka.config;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;

/** What a validation left in a connector's {@link Config}, for the tests of the checks. */
final class ConfigErrors {
    private ConfigErrors() {
    }

    /** Every setting's error messages by its name, an empty list for a setting without errors. */
    static Map<String, List<String>> byName(Config config) {
        Map<String, List<String>> errors = new HashMap<>();
        for (ConfigValue v : config.configValues()) {
            errors.put(v.name(), v.errorMessages());
        }
        return errors;
    }
}
