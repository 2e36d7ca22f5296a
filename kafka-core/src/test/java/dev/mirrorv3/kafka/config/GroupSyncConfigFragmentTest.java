package dev.mirrorv3.kafka.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** The consumer-group settings as the three connectors define them: groups.interval.ms 0 (off) or at least 100 ms. */
class GroupSyncConfigFragmentTest {
    private static AbstractConfig config(String... pairs) {
        ConfigDef def = new ConfigDef();
        SettingsTable table = new SettingsTable(def);
        GroupSyncConfigFragment.withSync("Consumer groups", true, "sync", Map.of()).define(table);
        assertThat(table.nextOrder("Consumer groups")).isEqualTo(5);
        Map<String, String> props = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            props.put(pairs[i], pairs[i + 1]);
        }
        return new AbstractConfig(def, props);
    }

    @Test
    void zeroTurnsTheGroupsJobOff() {
        assertThat(GroupSyncConfigFragment.syncs(config())).isTrue();
        assertThat(GroupSyncConfigFragment.intervalMs(config())).isEqualTo(60_000L);
        AbstractConfig off = config("groups.interval.ms", "0");
        assertThat(GroupSyncConfigFragment.intervalMs(off)).isZero();
        assertThat(GroupSyncConfigFragment.syncs(off)).isFalse();
        assertThat(GroupSyncConfigFragment.syncs(config("groups.interval.ms", "100"))).isTrue();
    }

    @Test
    void anIntervalBelowTheFloorIsRefusedNamingTheSettingAndWhatItMayBe() {
        for (String value : new String[] {"1", "99", "-1"}) {
            assertThatThrownBy(() -> config("groups.interval.ms", value)).as(value).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("groups.interval.ms").hasMessageContaining("must be 0 (off) or at least 100");
        }
    }

    @Test
    void aSelectionThatIsNoRegularExpressionIsRefused() {
        assertThatThrownBy(() -> config("groups.include", "orders-(")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("groups.include").hasMessageContaining("not a Java regular expression");
    }
}
