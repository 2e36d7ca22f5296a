package dev.mirrorv3.kafka.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

class DeprecatedAliasesTest {
    private final DeprecatedAliases aliases = DeprecatedAliases.of("old.timeout.ms", "new.timeout.ms");

    @Test
    void anAliasAloneMovesToItsCurrentName() {
        assertThat(aliases.translate(Map.of("old.timeout.ms", "2000", "other", "x")))
                .isEqualTo(Map.of("new.timeout.ms", "2000", "other", "x"));
        assertThat(aliases.warnings(Map.of("old.timeout.ms", "2000")))
                .containsExactly("old.timeout.ms is deprecated: rename it to new.timeout.ms (same meaning; the old name still works)");
    }

    @Test
    void theCurrentNameWinsOverTheAlias() {
        assertThat(aliases.translate(Map.of("old.timeout.ms", "2000", "new.timeout.ms", "3000")))
                .isEqualTo(Map.of("new.timeout.ms", "3000"));
        assertThat(aliases.warnings(Map.of("old.timeout.ms", "2000", "new.timeout.ms", "3000")))
                .containsExactly("old.timeout.ms is deprecated and ignored, since new.timeout.ms is set: remove old.timeout.ms");
    }

    @Test
    void settingsWithoutAliasesAreLeftAsTheyAre() {
        Map<String, String> props = Map.of("new.timeout.ms", "3000");
        assertThat(aliases.translate(props)).isSameAs(props);
        assertThat(aliases.warnings(props)).isEmpty();
    }

    @Test
    void reportRecommendsTheAliasValueForTheCurrentNameWithoutAnError() {
        ConfigValue current = new ConfigValue("new.timeout.ms", 15000L, new ArrayList<>(), new ArrayList<>());
        ConfigValue alias = new ConfigValue("old.timeout.ms", 2000L, new ArrayList<>(), new ArrayList<>());
        Config config = new Config(new ArrayList<>(List.of(current, alias)));
        aliases.report(Map.of("old.timeout.ms", "2000"), config, NOPLogger.NOP_LOGGER);
        assertThat(current.recommendedValues()).containsExactly("2000");
        assertThat(current.errorMessages()).isEmpty();
        assertThat(alias.errorMessages()).isEmpty();
    }
}
