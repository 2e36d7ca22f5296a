package dev.mirrorv3.connect.blob;

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

/** admin.timeout.ms is the name all three connectors share; the blob sink's former source.admin.timeout.ms still works. */
class AdminTimeoutNameTest {
    @TempDir
    Path root;

    private Map<String, String> config(Map<String, String> extra) {
        Map<String, String> c = new HashMap<>(Map.of("name", "orders-backup", "topics", "orders", "filesystem.root", root.toString(),
                "source.admin.bootstrap.servers", "k:9092"));
        c.put("key.converter", ConnectorChecks.BYTE_ARRAY_CONVERTER);
        c.put("value.converter", ConnectorChecks.BYTE_ARRAY_CONVERTER);
        c.put("header.converter", ConnectorChecks.BYTE_ARRAY_CONVERTER);
        c.put("consumer.override.auto.offset.reset", "none");
        c.put("consumer.override.isolation.level", "read_committed");
        c.putAll(extra);
        return c;
    }

    @Test
    void theSharedNameSetsTheTimeout() {
        assertThat(new BlobSinkConfig(config(Map.of("admin.timeout.ms", "3000"))).adminTimeout()).isEqualTo(Duration.ofMillis(3000));
        assertThat(BlobSinkValidation.VALIDATION.warnings(config(Map.of("admin.timeout.ms", "3000")))).isEmpty();
    }

    @Test
    void theFormerNameStillWorksAndIsNotAnAdminClientSetting() {
        BlobSinkConfig parsed = new BlobSinkConfig(config(Map.of("source.admin.timeout.ms", "2000")));
        assertThat(parsed.adminTimeout()).isEqualTo(Duration.ofMillis(2000));
        assertThat(parsed.sourceAdminConfig()).doesNotContainKey("timeout.ms").containsEntry("bootstrap.servers", "k:9092");
        assertThat(BlobSinkValidation.VALIDATION.warnings(config(Map.of("source.admin.timeout.ms", "2000"))))
                .containsExactly("source.admin.timeout.ms is deprecated: rename it to admin.timeout.ms (same meaning; the old name"
                        + " still works)");
    }

    @Test
    void validateAcceptsTheFormerNameAndRecommendsMovingItsValue() {
        Map<String, ConfigValue> values = new HashMap<>();
        BlobSinkValidation.VALIDATION.validate(config(Map.of("source.admin.timeout.ms", "2000")), true).configValues()
                .forEach(v -> values.put(v.name(), v));
        values.values().forEach(v -> assertThat(v.errorMessages()).as(v.name()).isEmpty());
        assertThat(values.get("admin.timeout.ms").recommendedValues()).containsExactly("2000");
    }

    @Test
    void theSharedNameWinsAndTheFormerIsStillRangeChecked() {
        assertThat(new BlobSinkConfig(config(Map.of("source.admin.timeout.ms", "2000", "admin.timeout.ms", "3000"))).adminTimeout())
                .isEqualTo(Duration.ofMillis(3000));
        ConfigValue alias = BlobSinkValidation.VALIDATION.validate(config(Map.of("source.admin.timeout.ms", "50")), true)
                .configValues().stream()
                .filter(v -> v.name().equals("source.admin.timeout.ms")).findFirst().orElseThrow();
        assertThat(alias.errorMessages()).singleElement().asString().contains("at least 100");
    }

    @Test
    void theReadmeListsTheFormerName() throws Exception {
        assertThat(BlobSinkConfig.DEPRECATED.currentByAlias())
                .containsExactly(java.util.Map.entry("source.admin.timeout.ms", "admin.timeout.ms"));
        assertThat(Files.readString(GeneratedDocs.CONFIGURATION))
                .contains("| `source.admin.timeout.ms` | blob sink | `admin.timeout.ms` |");
    }
}
