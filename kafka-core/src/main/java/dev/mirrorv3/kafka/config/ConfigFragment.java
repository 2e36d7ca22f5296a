package dev.mirrorv3.kafka.config;

import java.util.List;
import java.util.Map;

/**
 * A piece of a connector's configuration (docs/architecture.md, 'Configuration fragments'): it defines its settings in
 * a {@link SettingsTable} and checks the rules across them, each error attached to its setting in
 * {@link ConnectorChecks}. A connector's configuration is its list of fragments ({@link ConfigFragments}); its own
 * settings are fragments too ({@link #settings}).
 */
public interface ConfigFragment {
    void define(SettingsTable table);

    /**
     * The rules across this fragment's settings, beyond each one's own validator.
     *
     * @param offline contact and read nothing (validate in CI)
     */
    default void validate(Map<String, String> props, ConnectorChecks checks, boolean offline) {
    }

    /**
     * At the connector's and the task's start: refuses what validate() refuses but Connect would still start (a config
     * stored by an older version, or written to the config topic directly, never went through this validate()).
     *
     * @throws org.apache.kafka.common.config.ConfigException with validate()'s message
     */
    default void refuseAtStart(Map<String, String> props) {
    }

    /** Settings of one group, with no rule across them. */
    static ConfigFragment settings(String group, Setting... settings) {
        List<Setting> rows = List.of(settings);
        return table -> table.add(group, rows);
    }

    /** Settings of one group numbered from {@code firstOrder}, with no rule across them. */
    static ConfigFragment settingsFrom(String group, int firstOrder, Setting... settings) {
        List<Setting> rows = List.of(settings);
        return table -> table.continueAt(group, firstOrder).add(group, rows);
    }
}
