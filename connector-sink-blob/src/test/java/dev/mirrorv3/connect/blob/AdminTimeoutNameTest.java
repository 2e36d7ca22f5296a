package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.FormerAdminTimeoutNameContract;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** admin.timeout.ms is the name all three connectors share; the blob sink's former source.admin.timeout.ms still works. */
class AdminTimeoutNameTest extends FormerAdminTimeoutNameContract {
    AdminTimeoutNameTest() {
        super("source.admin.timeout.ms", "blob sink", c -> new BlobSinkConfig(c).adminTimeout(),
                c -> new BlobSinkConfig(c).sourceAdminConfig(), BlobSinkValidation.VALIDATION::warnings,
                c -> BlobSinkValidation.VALIDATION.validate(c, true), BlobSinkConfig.DEPRECATED.currentByAlias());
    }

    @Override
    protected Map<String, String> settings() {
        return Map.of("name", "orders-backup", "topics", "orders", "filesystem.root", root.toString(), "source.admin.bootstrap.servers",
                "k:9092", "consumer.override.auto.offset.reset", "none", "consumer.override.isolation.level", "read_committed");
    }

    @Test
    void theFormerIsStillRangeChecked() {
        assertThat(validatedFormer("50").errorMessages()).singleElement().asString().contains("at least 100");
    }
}
