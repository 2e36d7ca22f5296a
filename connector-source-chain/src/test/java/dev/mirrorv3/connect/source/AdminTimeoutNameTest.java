package dev.mirrorv3.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.kafka.config.ConnectorChecks;
import dev.mirrorv3.testsupport.GeneratedDocs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** admin.timeout.ms is the name all three connectors share; the chain source's former target.admin.timeout.ms still works. */
class AdminTimeoutNameTest {
    @TempDir
    Path root;

    private Map<String, String> config(Map<String, String> extra) {
        Map<String, String> c = new HashMap<>(Map.of("topics", "orders", "filesystem.root", root.toString(), "destination.name",
                "orders-backup", "target.topic", "orders", "offsets", "preserve", "target.admin.bootstrap.servers", "k:9092"));
        c.put("key.converter", ConnectorChecks.BYTE_ARRAY_CONVERTER);
        c.put("value.converter", ConnectorChecks.BYTE_ARRAY_CONVERTER);
        c.put("header.converter", ConnectorChecks.BYTE_ARRAY_CONVERTER);
        c.put("producer.override.enable.idempotence", "true");
        c.put("producer.override.acks", "all");
        c.putAll(extra);
        return c;
    }

    @Test
    void theSharedNameSetsTheTimeout() {
        assertThat(new ChainSourceConfig(config(Map.of("admin.timeout.ms", "3000"))).adminTimeout()).isEqualTo(Duration.ofMillis(3000));
        assertThat(ChainSourceValidation.VALIDATION.warnings(config(Map.of("admin.timeout.ms", "3000")))).isEmpty();
    }

    @Test
    void theFormerNameStillWorksAndIsNotAClientSetting() {
        ChainSourceConfig parsed = new ChainSourceConfig(config(Map.of("target.admin.timeout.ms", "2000")));
        assertThat(parsed.adminTimeout()).isEqualTo(Duration.ofMillis(2000));
        assertThat(parsed.targetClientConfig()).doesNotContainKey("timeout.ms").containsEntry("bootstrap.servers", "k:9092");
        assertThat(ChainSourceValidation.VALIDATION.warnings(config(Map.of("target.admin.timeout.ms", "2000"))))
                .containsExactly("target.admin.timeout.ms is deprecated: rename it to admin.timeout.ms (same meaning; the old name"
                        + " still works)");
    }

    @Test
    void validateAcceptsTheFormerNameAndRecommendsMovingItsValue() {
        Map<String, ConfigValue> values = new HashMap<>();
        ChainSourceValidation.VALIDATION.validate(config(Map.of("target.admin.timeout.ms", "2000")), true).configValues()
                .forEach(v -> values.put(v.name(), v));
        values.values().forEach(v -> assertThat(v.errorMessages()).as(v.name()).isEmpty());
        assertThat(values.get("admin.timeout.ms").recommendedValues()).containsExactly("2000");
    }

    @Test
    void theSharedNameWins() {
        assertThat(new ChainSourceConfig(config(Map.of("target.admin.timeout.ms", "2000", "admin.timeout.ms", "3000"))).adminTimeout())
                .isEqualTo(Duration.ofMillis(3000));
        assertThat(ChainSourceValidation.VALIDATION.warnings(config(Map.of("target.admin.timeout.ms", "2000", "admin.timeout.ms", "3000"))))
                .containsExactly("target.admin.timeout.ms is deprecated and ignored, since admin.timeout.ms is set: remove"
                        + " target.admin.timeout.ms");
    }

    @Test
    void theReadmeListsTheFormerName() throws Exception {
        assertThat(ChainSourceConfig.DEPRECATED.currentByAlias())
                .containsExactly(java.util.Map.entry("target.admin.timeout.ms", "admin.timeout.ms"));
        assertThat(Files.readString(GeneratedDocs.CONFIGURATION))
                .contains("| `target.admin.timeout.ms` | chain source | `admin.timeout.ms` |");
    }
}
