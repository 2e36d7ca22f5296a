package dev.mirrorv3.kafka.config;

import dev.mirrorv3.kafka.groups.GroupSelection;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
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

    static final String GROUPS_INCLUDE_DOC = """
            The consumer groups whose offsets are synced: a Java regular expression matched against \
            the whole group id. groups.exclude wins over it; the connector's own group and ids starting with __ are never synced.""";
    static final String GROUPS_EXCLUDE_DOC = """
            Consumer groups never synced, even if groups.include matches them: a Java regular \
            expression matched against the whole group id; empty for none.""";
    static final String GROUPS_INTERVAL_MS_DOC = """
            How often the group offsets are synced (one pass: list the groups, read their \
            offsets in batches, commit those that changed). 0 turns the sync off, as groups.sync=false does.""";

    private GroupSyncConfigFragment() {
    }

    /**
     * groups.sync in {@code group}, then the selection and the interval ({@link #selection(String, Map)},
     * {@link #interval}).
     *
     * @param syncDoc the doc of groups.sync (the connector's default and why)
     */
    public static ConfigFragment withSync(String group, boolean syncDefault, String syncDoc, Map<String, String> docs) {
        Setting sync = Setting.of(GROUPS_SYNC, Type.BOOLEAN, syncDefault, Importance.MEDIUM, Width.SHORT, "Sync group offsets", syncDoc);
        List<ConfigFragment> parts = List.of(ConfigFragment.settings(group, sync), selection(group, docs),
                interval(group, docs.getOrDefault(GROUPS_INTERVAL_MS, GROUPS_INTERVAL_MS_DOC)));
        return table -> parts.forEach(p -> p.define(table));
    }

    /** groups.include and groups.exclude in {@code group}. */
    public static ConfigFragment selection(String group, Map<String, String> docs) {
        return ConfigFragment.settings(group,
                Setting.of(GROUPS_INCLUDE, Type.STRING, ".*", Importance.MEDIUM, Width.MEDIUM, "Groups include", GROUPS_INCLUDE_DOC)
                        .withValidator(new RegexValidator()).docFrom(docs),
                Setting.of(GROUPS_EXCLUDE, Type.STRING, "", Importance.MEDIUM, Width.MEDIUM, "Groups exclude", GROUPS_EXCLUDE_DOC)
                        .withValidator(new RegexValidator()).docFrom(docs));
    }

    /** groups.interval.ms in {@code group}: 60 s by default, 0 (off) or at least 100 ms. */
    public static ConfigFragment interval(String group, String doc) {
        return ConfigFragment.settings(group, Setting.of(GROUPS_INTERVAL_MS, Type.LONG, 60_000L, Importance.MEDIUM, Width.SHORT,
                "Groups interval (ms)", doc).withValidator(ConfigValidators.offOrAtLeast(GROUPS_INTERVAL_MS_MIN)));
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
