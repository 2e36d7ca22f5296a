package dev.mirrorv3.kafka.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** heartbeat.interval.ms as every connector defines it: default, range (0 is off), group and order. */
class HeartbeatConfigFragmentTest {
    private static ConfigDef def() {
        ConfigDef def = new ConfigDef();
        SettingsTable table = new SettingsTable(def).continueAt("Operations", 4);
        HeartbeatConfigFragment.FRAGMENT.define(table);
        assertThat(table.nextOrder("Operations")).isEqualTo(5);
        return def;
    }

    @Test
    void thirtySecondsByDefaultAndZeroTurnsItOff() {
        assertThat(HeartbeatConfigFragment.intervalMs(new AbstractConfig(def(), Map.of()))).isEqualTo(30_000L);
        assertThat(HeartbeatConfigFragment.intervalMs(new AbstractConfig(def(), Map.of("heartbeat.interval.ms", "0")))).isZero();
    }

    @Test
    void aNegativeIntervalIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> new AbstractConfig(def(), Map.of("heartbeat.interval.ms", "-1")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("heartbeat.interval.ms").hasMessageContaining("at least 0");
    }

    @Test
    void listedInTheOperationsGroupAtTheGivenOrder() {
        ConfigDef.ConfigKey key = def().configKeys().get("heartbeat.interval.ms");
        assertThat(key.group).isEqualTo("Operations");
        assertThat(key.orderInGroup).isEqualTo(4);
        assertThat(key.documentation).contains("0 turns it off");
    }
}
