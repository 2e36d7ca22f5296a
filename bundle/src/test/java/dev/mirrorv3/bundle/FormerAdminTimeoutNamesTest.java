package dev.mirrorv3.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.connect.blob.BlobSinkConfig;
import dev.mirrorv3.connect.blob.BlobSinkValidation;
import dev.mirrorv3.connect.source.ChainSourceConfig;
import dev.mirrorv3.connect.source.ChainSourceValidation;
import dev.mirrorv3.testsupport.FormerAdminTimeoutName;
import dev.mirrorv3.testsupport.FormerAdminTimeoutName.Reads;
import dev.mirrorv3.testsupport.FormerAdminTimeoutName.Validation;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * admin.timeout.ms is the name the bundle's connectors share; the blob sink's former source.admin.timeout.ms and the
 * chain source's former target.admin.timeout.ms still work. Checked here, where every connector is on the class path,
 * once for all of them.
 */
class FormerAdminTimeoutNamesTest {
    @TempDir
    Path root;

    private FormerAdminTimeoutName blobSink() {
        return new FormerAdminTimeoutName("source.admin.timeout.ms", "blob sink",
                Map.of("name", "orders-backup", "topics", "orders", "filesystem.root", root.toString(), "source.admin.bootstrap.servers",
                        "k:9092", "consumer.override.auto.offset.reset", "none", "consumer.override.isolation.level", "read_committed"),
                new Reads(c -> new BlobSinkConfig(c).adminTimeout(), c -> new BlobSinkConfig(c).sourceAdminConfig()),
                new Validation(BlobSinkValidation.VALIDATION::warnings, c -> BlobSinkValidation.VALIDATION.validate(c, true)),
                BlobSinkConfig.DEPRECATED.currentByAlias());
    }

    private FormerAdminTimeoutName chainSource() {
        return new FormerAdminTimeoutName("target.admin.timeout.ms", "chain source",
                Map.of("topics", "orders", "filesystem.root", root.toString(), "destination.name", "orders-backup", "target.topic",
                        "orders", "offsets", "preserve", "target.admin.bootstrap.servers", "k:9092",
                        "producer.override.enable.idempotence", "true", "producer.override.acks", "all"),
                new Reads(c -> new ChainSourceConfig(c).adminTimeout(), c -> new ChainSourceConfig(c).targetClientConfig()),
                new Validation(ChainSourceValidation.VALIDATION::warnings, c -> ChainSourceValidation.VALIDATION.validate(c, true)),
                ChainSourceConfig.DEPRECATED.currentByAlias());
    }

    @TestFactory
    Stream<DynamicTest> eachFormerNameStillWorks() {
        return Stream.of(blobSink(), chainSource()).flatMap(FormerAdminTimeoutName::tests);
    }

    @Test
    void theBlobSinksFormerNameIsStillRangeChecked() {
        assertThat(blobSink().validatedFormer("50").errorMessages()).singleElement().asString().contains("at least 100");
    }

    @Test
    void settingBothOfTheChainSourcesWarnsThatTheFormerIsIgnored() {
        Map<String, String> both = chainSource().config(Map.of("target.admin.timeout.ms", "2000", "admin.timeout.ms", "3000"));
        assertThat(ChainSourceValidation.VALIDATION.warnings(both))
                .containsExactly("target.admin.timeout.ms is deprecated and ignored, since admin.timeout.ms is set: remove"
                        + " target.admin.timeout.ms");
    }
}
