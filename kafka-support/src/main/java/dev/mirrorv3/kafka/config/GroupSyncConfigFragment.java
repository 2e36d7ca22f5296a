package dev.mirrorv3.kafka.config;

import dev.mirrorv3.kafka.groups.GroupSelection;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The consumer-group sync settings of the connectors that keep a standby (the Kafka sink, the chain source):
 * groups.sync, groups.include, groups.exclude, groups.interval.ms. Each connector gives the docs that differ by key.
 */
public final class GroupSyncConfigFragment {
    public static final String GROUPS_SYNC = "groups.sync";
    public static final String GROUPS_INCLUDE = "groups.include";
    public static final String GROUPS_EXCLUDE = "groups.exclude";
    public static final String GROUPS_INTERVAL_MS = "groups.interval.ms";

    static final String GROUPS_INCLUDE_DOC = "The consumer groups whose offsets are synced: a Java regular expression matched against"
            + " the whole group id. groups.exclude wins over it; the connector's own group and ids starting with __ are never synced.";
    static final String GROUPS_EXCLUDE_DOC = "Consumer groups never synced, even if groups.include matches them: a Java regular"
            + " expression matched against the whole group id; empty for none.";
    static final String GROUPS_INTERVAL_MS_DOC = "How often the group offsets are synced (one pass: list the groups, read their"
            + " offsets in batches, commit those that changed).";

    private GroupSyncConfigFragment() {
    }

    /**
     * @param syncDoc the doc of groups.sync (the connector's default and why)
     * @return the order after the last setting defined
     */
    public static int define(ConfigDef def, String group, int order, boolean syncDefault, String syncDoc, Map<String, String> docs) {
        def.define(GROUPS_SYNC, Type.BOOLEAN, syncDefault, Importance.MEDIUM, syncDoc, group, order++, Width.SHORT, "Sync group offsets");
        def.define(GROUPS_INCLUDE, Type.STRING, ".*", regex(), Importance.MEDIUM, docs.getOrDefault(GROUPS_INCLUDE, GROUPS_INCLUDE_DOC),
                group, order++, Width.MEDIUM, "Groups include");
        def.define(GROUPS_EXCLUDE, Type.STRING, "", regex(), Importance.MEDIUM, docs.getOrDefault(GROUPS_EXCLUDE, GROUPS_EXCLUDE_DOC),
                group, order++, Width.MEDIUM, "Groups exclude");
        def.define(GROUPS_INTERVAL_MS, Type.LONG, 60_000L, ConfigDef.Range.atLeast(100), Importance.LOW,
                docs.getOrDefault(GROUPS_INTERVAL_MS, GROUPS_INTERVAL_MS_DOC), group, order++, Width.SHORT, "Groups interval (ms)");
        return order;
    }

    /** The selection of a config that defines these settings; {@code ownGroups} are never selected. */
    public static GroupSelection selection(AbstractConfig config, Collection<String> ownGroups) {
        return GroupSelection.of(config.getString(GROUPS_INCLUDE), config.getString(GROUPS_EXCLUDE), ownGroups);
    }

    /** A Java regular expression (empty allowed). */
    static ConfigDef.Validator regex() {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                try {
                    GroupSelection.of(value == null ? "" : value.toString(), "", java.util.List.of());
                } catch (IllegalArgumentException e) {
                    throw new ConfigException(name, value, e.getMessage());
                }
            }

            @Override
            public String toString() {
                return "a Java regular expression";
            }
        };
    }
}
