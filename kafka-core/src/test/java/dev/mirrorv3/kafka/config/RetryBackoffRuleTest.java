package dev.mirrorv3.kafka.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

/** The retry fragment's rule: the largest delay is at least the first (Backoff refuses the reverse when a task starts). */
class RetryBackoffRuleTest {
    private static final ConfigDef DEF = new ConfigDef();

    static {
        ConnectorConfigFragment.retryBackoff("Operations", Map.of()).define(new SettingsTable(DEF));
    }

    private static Map<String, List<String>> errors(String... kv) {
        Map<String, String> props = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            props.put(kv[i], kv[i + 1]);
        }
        Config config = new Config(new ArrayList<>(DEF.validate(props)));
        ConnectorConfigFragment.validateRetryBackoff(props, new ConnectorChecks(props, config));
        Map<String, List<String>> out = new HashMap<>();
        for (ConfigValue v : config.configValues()) {
            if (!v.errorMessages().isEmpty()) {
                out.put(v.name(), v.errorMessages());
            }
        }
        return out;
    }

    @Test
    void theDefaultsAndAnyIncreasingPairPass() {
        assertThat(errors()).isEmpty();
        assertThat(errors("retry.backoff.initial.ms", "60000")).as("equal to the default max").isEmpty();
        assertThat(errors("retry.backoff.initial.ms", "500", "retry.backoff.max.ms", "500")).isEmpty();
    }

    @Test
    void aFirstDelayAboveTheLargestIsOneErrorOnTheSettingThatWasSet() {
        assertThat(errors("retry.backoff.initial.ms", "120000")).containsOnlyKeys("retry.backoff.initial.ms")
                .extractingByKey("retry.backoff.initial.ms").asList().containsExactly("retry.backoff.max.ms=60000 is below"
                        + " retry.backoff.initial.ms=120000: the delay doubles from the initial one up to the maximum; raise"
                        + " retry.backoff.max.ms or lower retry.backoff.initial.ms");
        assertThat(errors("retry.backoff.max.ms", "500")).containsOnlyKeys("retry.backoff.max.ms");
        assertThat(errors("retry.backoff.initial.ms", "2000", "retry.backoff.max.ms", "1000")).containsOnlyKeys("retry.backoff.max.ms");
    }

    @Test
    void aValueTheConfigDefRefusesOrThatIsAReferenceIsNotJudgedAgain() {
        assertThat(errors("retry.backoff.initial.ms", "0", "retry.backoff.max.ms", "-5")).allSatisfy((k, v) -> assertThat(v).hasSize(1));
        Map<String, String> props = new HashMap<>(Map.of("retry.backoff.initial.ms", "${env:RETRY_MS}"));
        Config config = new Config(new ArrayList<>());
        ConnectorConfigFragment.validateRetryBackoff(props, new ConnectorChecks(props, config));
        assertThat(config.configValues()).isEmpty();
    }
}
