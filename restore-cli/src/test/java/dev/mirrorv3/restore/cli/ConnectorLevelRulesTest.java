package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.kafka.config.ConnectorChecks;
import dev.mirrorv3.kafka.config.ConnectorLevelRules;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.runtime.SinkConnectorConfig;
import org.apache.kafka.connect.runtime.SourceConnectorConfig;
import org.junit.jupiter.api.Test;

/**
 * kafka-support's re-statement of Connect's connector-level rules ({@link ConnectorLevelRules}, which the CLI uses
 * without connect-runtime) matches connect-runtime's own definitions, here on the test classpath: the same setting
 * names, and the same verdict and message on tasks.max.
 */
class ConnectorLevelRulesTest {
    @Test
    void theSettingNamesAreConnectsOwn() {
        assertThat(ConnectorLevelRules.connectKeys(ConnectorLevelRules.Kind.SINK))
                .containsExactlyInAnyOrderElementsOf(SinkConnectorConfig.configDef().names());
        assertThat(ConnectorLevelRules.connectKeys(ConnectorLevelRules.Kind.SOURCE))
                .containsExactlyInAnyOrderElementsOf(SourceConnectorConfig.configDef().names());
    }

    @Test
    void tasksMaxGetsConnectsVerdictAndMessage() {
        for (String value : List.of("abc", "0", "-1", "1", "7", "2147483648", "1.5", "")) {
            Map<String, String> props = new HashMap<>(Map.of("tasks.max", value, "topics", "orders"));
            ConfigValue connects = SinkConnectorConfig.configDef().validateAll(props).get("tasks.max");
            Config ours = new Config(new ArrayList<>());
            ConnectorLevelRules.validate(props, ConnectorLevelRules.Kind.SINK, new ConnectorChecks(props, ours));
            List<String> ourMessages = ours.configValues().stream().filter(v -> v.name().equals("tasks.max"))
                    .flatMap(v -> v.errorMessages().stream()).toList();
            // Connect adds "Invalid value null ...: Value must be non-null" after a value that does not parse
            assertThat(connects.errorMessages()).as("tasks.max=" + value).containsAll(ourMessages);
            assertThat(ourMessages.isEmpty()).as("tasks.max=" + value + " " + connects.errorMessages())
                    .isEqualTo(connects.errorMessages().isEmpty());
        }
    }
}
