package dev.mirrorv3.kafka.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.slf4j.Logger;

/**
 * Old setting names that keep working, in the pattern of Kafka's {@code ConfigUtils.translateDeprecatedConfigs}
 * (kafka-clients 3.x): an alias is read when its current name is not set, and ignored when it is. The config classes
 * parse {@link #translate}d settings, so the rest of the code knows only the current names.
 *
 * <p>A Connect {@link ConfigValue} has errors but no warnings, and an error would refuse the config. So {@link #report}
 * warns in the worker's log and sets the current name's recommended values to the alias's value (the value to move
 * there); {@code mirror-v3 validate} prints {@link #warnings} without failing.
 */
public final class DeprecatedAliases {
    private final Map<String, String> currentByAlias;

    private DeprecatedAliases(Map<String, String> currentByAlias) {
        this.currentByAlias = currentByAlias;
    }

    /** {@code alias} is the old name of {@code current}. */
    public static DeprecatedAliases of(String alias, String current) {
        return new DeprecatedAliases(new LinkedHashMap<>(Map.of(alias, current)));
    }

    /** The old names, each with its current name. */
    public Map<String, String> currentByAlias() {
        return Map.copyOf(currentByAlias);
    }

    /** {@code props} with each alias gone, its value moved to its current name unless that is set. */
    public <K, V> Map<K, V> translate(Map<K, V> props) {
        if (currentByAlias.keySet().stream().noneMatch(props::containsKey)) {
            return props;
        }
        Map<K, V> translated = new HashMap<>(props);
        currentByAlias.forEach((alias, current) -> {
            if (translated.containsKey(alias)) {
                V value = translated.remove(alias);
                @SuppressWarnings("unchecked")
                K key = (K) current;
                translated.putIfAbsent(key, value);
            }
        });
        return translated;
    }

    /** One line per alias set in {@code props}: what to rename, or what to remove when both names are set. */
    public List<String> warnings(Map<String, ?> props) {
        List<String> warnings = new ArrayList<>();
        currentByAlias.forEach((alias, current) -> {
            if (!props.containsKey(alias)) {
                return;
            }
            warnings.add(props.containsKey(current)
                    ? alias + " is deprecated and ignored, since " + current + " is set: remove " + alias
                    : alias + " is deprecated: rename it to " + current + " (same meaning; the old name still works)");
        });
        return warnings;
    }

    /** validate()'s report of the aliases in use: a WARN line each, and the alias's value recommended for its current name. */
    public void report(Map<String, String> props, Config config, Logger log) {
        warnings(props).forEach(w -> log.warn("Connector config: {}", w));
        currentByAlias.forEach((alias, current) -> {
            if (props.containsKey(alias) && !props.containsKey(current)) {
                for (ConfigValue v : config.configValues()) {
                    if (v.name().equals(current)) {
                        v.recommendedValues(List.of(props.get(alias)));
                    }
                }
            }
        });
    }
}
