package dev.mirrorv3.kafka.config;

import dev.mirrorv3.kafka.groups.GroupSelection;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The consumer-group settings: groups.include, groups.exclude and groups.interval.ms, defined once for the three
 * connectors (the blob sink snapshots the selected groups' offsets, the Kafka sink and the chain source sync them), and
 * groups.sync of the two that keep a standby. Each connector gives the docs that differ by key. groups.interval.ms is 0
 * (off) or at least 100 ms in every connector (docs/decisions.md, 'Configuration as fragments').
 */
public final class GroupSyncConfigFragment {
    public static final String GROUPS_SYNC = "groups.sync";
    public static final String GROUPS_INCLUDE = "groups.include";
    public static final String GROUPS_EXCLUDE = "groups.exclude";
    public static final String GROUPS_INTERVAL_MS = "groups.interval.ms";
    static final long GROUPS_INTERVAL_MS_MIN = 100L;

    static final String GROUPS_INCLUDE_DOC = "The consumer groups whose offsets are synced: a Java regular expression matched against"
            + " the whole group id. groups.exclude wins over it; the connector's own group and ids starting with __ are never synced.";
    static final String GROUPS_EXCLUDE_DOC = "Consumer groups never synced, even if groups.include matches them: a Java regular"
            + " expression matched against the whole group id; empty for none.";
    static final String GROUPS_INTERVAL_MS_DOC = "How often the group offsets are synced (one pass: list the groups, read their"
            + " offsets in batches, commit those that changed). 0 turns the sync off, as groups.sync=false does.";

    private GroupSyncConfigFragment() {
    }

    /**
     * groups.sync, then the selection and the interval ({@link #defineSelection}, {@link #defineInterval}).
     *
     * @param syncDoc the doc of groups.sync (the connector's default and why)
     * @return the order after the last setting defined
     */
    public static int define(ConfigDef def, String group, int order, boolean syncDefault, String syncDoc, Map<String, String> docs) {
        def.define(GROUPS_SYNC, Type.BOOLEAN, syncDefault, Importance.MEDIUM, syncDoc, group, order++, Width.SHORT, "Sync group offsets");
        order = defineSelection(def, group, order, docs);
        return defineInterval(def, group, order, docs.getOrDefault(GROUPS_INTERVAL_MS, GROUPS_INTERVAL_MS_DOC));
    }

    /**
     * groups.include and groups.exclude.
     *
     * @return the order after the last setting defined
     */
    public static int defineSelection(ConfigDef def, String group, int order, Map<String, String> docs) {
        def.define(GROUPS_INCLUDE, Type.STRING, ".*", new RegexValidator(), Importance.MEDIUM,
                docs.getOrDefault(GROUPS_INCLUDE, GROUPS_INCLUDE_DOC), group, order++, Width.MEDIUM, "Groups include");
        def.define(GROUPS_EXCLUDE, Type.STRING, "", new RegexValidator(), Importance.MEDIUM,
                docs.getOrDefault(GROUPS_EXCLUDE, GROUPS_EXCLUDE_DOC), group, order++, Width.MEDIUM, "Groups exclude");
        return order;
    }

    /**
     * groups.interval.ms: 60 s by default, 0 (off) or at least 100 ms.
     *
     * @return the order after the setting
     */
    public static int defineInterval(ConfigDef def, String group, int order, String doc) {
        def.define(GROUPS_INTERVAL_MS, Type.LONG, 60_000L, ConfigValidators.offOrAtLeast(GROUPS_INTERVAL_MS_MIN), Importance.MEDIUM,
                doc, group, order++, Width.SHORT, "Groups interval (ms)");
        return order;
    }

    /** Whether a connector that syncs groups does: groups.sync, and groups.interval.ms not 0. */
    public static boolean syncs(AbstractConfig config) {
        return config.getBoolean(GROUPS_SYNC) && intervalMs(config) > 0;
    }

    /** groups.interval.ms of a config that defines it; 0 when the groups' job is off. */
    public static long intervalMs(AbstractConfig config) {
        return config.getLong(GROUPS_INTERVAL_MS);
    }

    /** The selection of a config that defines these settings; {@code ownGroups} are never selected. */
    public static GroupSelection selection(AbstractConfig config, Collection<String> ownGroups) {
        return GroupSelection.of(config.getString(GROUPS_INCLUDE), config.getString(GROUPS_EXCLUDE), ownGroups);
    }
}
