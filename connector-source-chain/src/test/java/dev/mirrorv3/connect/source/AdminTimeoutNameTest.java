package dev.mirrorv3.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.FormerAdminTimeoutNameContract;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** admin.timeout.ms is the name all three connectors share; the chain source's former target.admin.timeout.ms still works. */
class AdminTimeoutNameTest extends FormerAdminTimeoutNameContract {
    AdminTimeoutNameTest() {
        super("target.admin.timeout.ms", "chain source", c -> new ChainSourceConfig(c).adminTimeout(),
                c -> new ChainSourceConfig(c).targetClientConfig(), ChainSourceValidation.VALIDATION::warnings,
                c -> ChainSourceValidation.VALIDATION.validate(c, true), ChainSourceConfig.DEPRECATED.currentByAlias());
    }

    @Override
    protected Map<String, String> settings() {
        return Map.of("topics", "orders", "filesystem.root", root.toString(), "destination.name", "orders-backup", "target.topic",
                "orders", "offsets", "preserve", "target.admin.bootstrap.servers", "k:9092", "producer.override.enable.idempotence", "true",
                "producer.override.acks", "all");
    }

    @Test
    void settingBothWarnsThatTheFormerIsIgnored() {
        assertThat(ChainSourceValidation.VALIDATION.warnings(config(Map.of("target.admin.timeout.ms", "2000", "admin.timeout.ms", "3000"))))
                .containsExactly("target.admin.timeout.ms is deprecated and ignored, since admin.timeout.ms is set: remove"
                        + " target.admin.timeout.ms");
    }
}
