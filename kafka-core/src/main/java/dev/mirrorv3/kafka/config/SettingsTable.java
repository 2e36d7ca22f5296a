package dev.mirrorv3.kafka.config;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Defines {@link Setting}s in a ConfigDef in the order they are added: a setting's order in its group is its place
 * among the group's settings, whichever fragment adds them, so no fragment counts orders by hand.
 */
public final class SettingsTable {
    private final ConfigDef def;
    private final Map<String, Integer> lastOrder = new HashMap<>();

    public SettingsTable(ConfigDef def) {
        this.def = def;
    }

    /** Adds the settings to {@code group}, after those it has. */
    public SettingsTable add(String group, List<Setting> settings) {
        for (Setting s : settings) {
            int order = lastOrder.merge(group, 1, Integer::sum);
            def.define(s.key(), s.type(), s.defaultValue(), s.validator(), s.importance(), s.doc(), group, order, s.width(),
                    s.display(), s.dependents(), s.recommender());
        }
        return this;
    }

    /** The next setting added to {@code group} gets {@code order} (a group whose numbering leaves room). */
    public SettingsTable continueAt(String group, int order) {
        lastOrder.put(group, order - 1);
        return this;
    }

    /** The order the next setting added to {@code group} gets. */
    public int nextOrder(String group) {
        return lastOrder.getOrDefault(group, 0) + 1;
    }

    public ConfigDef def() {
        return def;
    }
}
