package dev.mirrorv3.kafka.config;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/**
 * A connector's configuration as its fragments, in the order their settings are defined, and its former setting names:
 * builds the one ConfigDef, translates the former names, and runs every fragment's rules for {@link ConnectorValidator}.
 */
public final class ConfigFragments {
    private final List<ConfigFragment> fragments;
    private final DeprecatedAliases deprecated;
    private final ConfigDef def;

    private ConfigFragments(DeprecatedAliases deprecated, List<ConfigFragment> fragments) {
        this.fragments = fragments;
        this.deprecated = deprecated;
        SettingsTable table = new SettingsTable(new ConfigDef());
        fragments.forEach(f -> f.define(table));
        this.def = table.def();
    }

    /** @param deprecated the connector's former setting names (validate() warns); null when it has none */
    public static ConfigFragments of(DeprecatedAliases deprecated, ConfigFragment... fragments) {
        return new ConfigFragments(deprecated, List.of(fragments));
    }

    public ConfigDef configDef() {
        return def;
    }

    /** The former names, or null when the connector has none. */
    public DeprecatedAliases deprecated() {
        return deprecated;
    }

    /** The settings with each former name's value under its current name ({@link DeprecatedAliases#translate}). */
    public Map<?, ?> translate(Map<?, ?> props) {
        return deprecated == null ? props : deprecated.translate(props);
    }

    /** Every fragment's rules, in definition order. */
    void validate(Map<String, String> props, ConnectorChecks checks, boolean offline) {
        fragments.forEach(f -> f.validate(props, checks, offline));
    }

    /** Every fragment's refusals at start ({@link ConfigFragment#refuseAtStart}), in definition order. */
    public void refuseAtStart(Map<String, String> props) {
        fragments.forEach(f -> f.refuseAtStart(props));
    }

    /** Whether the store fragment's location settings are complete and well-formed; false without one. */
    boolean storeLocationComplete(Map<String, String> props, ConnectorChecks checks) {
        return fragments.stream().filter(StoreConfigFragment.class::isInstance).map(StoreConfigFragment.class::cast)
                .anyMatch(store -> store.locationComplete(props, checks));
    }
}
